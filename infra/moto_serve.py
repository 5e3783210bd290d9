"""moto_server for the adapter tests, with DynamoDB writes made atomic.

moto serves requests on parallel threads and its DynamoDB backend applies concurrent
UpdateItem calls without isolation (an ADD counter raced by 10 tasks lost updates here).
Real DynamoDB applies each write atomically, so this launcher runs DynamoDB requests one at a
time; other services (SQS long polls, S3) stay concurrent.

usage: python infra/moto_serve.py HOST PORT
"""

import sys
import threading

from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import run_simple

_dynamodb = threading.Lock()
_moto = DomainDispatcherApplication(create_backend_app)


def app(environ, start_response):
    if environ.get("HTTP_X_AMZ_TARGET", "").startswith("DynamoDB"):
        with _dynamodb:
            # Consume the whole response inside the lock.
            return list(_moto(environ, start_response))
    return _moto(environ, start_response)


if __name__ == "__main__":
    host, port = sys.argv[1], int(sys.argv[2])
    run_simple(host, port, app, threaded=True, request_handler=MotoRequestHandler)
