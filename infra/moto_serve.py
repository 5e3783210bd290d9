"""moto_server for the adapter tests, with DynamoDB writes made atomic and transactions cheap.

moto serves requests on parallel threads and its DynamoDB backend applies concurrent
UpdateItem calls without isolation (an ADD counter raced by 10 tasks lost updates here).
Real DynamoDB applies each write atomically, so this launcher runs DynamoDB requests one at a
time; other services (SQS long polls, S3) stay concurrent.

moto's TransactWriteItems backs up the whole table (a deep copy, once for every item of the
transaction) so that it can roll back: its cost grew with the table, and a test fleet's intake
spent most of the suite's time copying. Here the backup is of the items the transaction names
(a copy of each, or their absence), put back when moto rolls back; what a transaction does and
answers is moto's own.

moto writes its answers through a serialiser that walks botocore's model for every value: most of
a Query's time went into re-serialising items that are already DynamoDB JSON. Here an
`AttributeValue` of plain JSON (strings, numbers, booleans, nulls, lists, maps, sets of strings or
numbers) is written as it is; binary values keep moto's serialiser.

moto's Query on a table (not an index) sorts every item of the table and then keeps those of the
partition asked for: a query cost the table's size. Here it is given that partition's items only;
moto still filters, sorts, pages and answers them.

usage: python infra/moto_serve.py HOST PORT
"""

import copy
import sys
import threading

from moto.core.serialize import JSONSerializer
from moto.dynamodb.models import DynamoDBBackend
from moto.dynamodb.models.table import Table

from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import run_simple

_transact_write_items = DynamoDBBackend.transact_write_items


def _touched(backend, transact_items):
    """(table, key, a copy of the item or None) for each item the transaction names."""
    touched = []
    for entry in transact_items:
        _, op = next(iter(entry.items()))
        name = op.get("TableName")
        table = backend.tables.get(name) if isinstance(op, dict) else None
        if table is None:
            continue
        key = op.get("Key")
        if key is None:
            attrs = op.get("Item", {})
            key = {a: attrs[a] for a in (table.hash_key_attr, table.range_key_attr) if a and a in attrs}
        try:
            touched.append((name, key, copy.deepcopy(backend.get_item(name, key))))
        except Exception:  # a malformed key: moto answers it, nothing of it to restore
            continue
    return touched


def _cheap_transact_write_items(self, transact_items):
    touched = _touched(self, transact_items)
    # moto's own backup becomes the live table (no copy); on its rollback, put the touched
    # items back as they were.
    Table.__deepcopy__ = lambda table, memo: table
    try:
        return _transact_write_items(self, transact_items)
    except BaseException:
        for name, key, before in reversed(touched):
            if before is None:
                try:
                    self.delete_item(name, key)
                except Exception:
                    pass
            else:
                self.put_item(name, before.to_json()["Attributes"])
        raise
    finally:
        del Table.__deepcopy__


DynamoDBBackend.transact_write_items = _cheap_transact_write_items

_query = Table.query
_all_items = Table.all_items
_partition = threading.local()


def _partition_query(self, hash_key, *args, **kwargs):
    index_name = args[6] if len(args) > 6 else kwargs.get("index_name")
    if index_name or hash_key is None:
        return _query(self, hash_key, *args, **kwargs)
    _partition.asked = (self, hash_key)
    try:
        return _query(self, hash_key, *args, **kwargs)
    finally:
        _partition.asked = None


def _partition_items(self):
    asked = getattr(_partition, "asked", None)
    if asked is None or asked[0] is not self:
        return _all_items(self)
    found = self.items.get(asked[1])
    if found is None:
        return []
    if not self.range_key_attr:
        return [found]
    return sorted(found.values(), key=lambda item: item.range_key)


_PLAIN_SCALARS = {"S": str, "N": str, "BOOL": bool, "NULL": bool}


def _plain(value):
    """Whether an AttributeValue is already its own JSON (no binary anywhere in it)."""
    if not isinstance(value, dict) or len(value) != 1:
        return False
    (kind, inner), = value.items()
    if kind in _PLAIN_SCALARS:
        return isinstance(inner, _PLAIN_SCALARS[kind])
    if kind in ("SS", "NS"):
        return isinstance(inner, list) and all(isinstance(v, str) for v in inner)
    if kind == "L":
        return isinstance(inner, list) and all(_plain(v) for v in inner)
    if kind == "M":
        return isinstance(inner, dict) and all(_plain(v) for v in inner.values())
    return False


_serialize_structure = JSONSerializer._serialize_type_structure


def _serialize_attribute_values_as_they_are(self, serialized, value, shape, key):
    if shape.name == "AttributeValue" and _plain(value):
        self._default_serialize(serialized, value, shape, key)
    else:
        _serialize_structure(self, serialized, value, shape, key)


JSONSerializer._serialize_type_structure = _serialize_attribute_values_as_they_are

Table.query = _partition_query
Table.all_items = _partition_items

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
