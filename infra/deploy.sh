#!/usr/bin/env bash
# make deploy: builds every function (sam build, arm64 release through cargo-lambda), deploys the
# stack (`sam deploy --guided` the first time, when the stack does not exist yet), builds the web
# app, uploads it to the stack's web bucket with its runtime config.json, and invalidates the
# distribution's cached index. Needs AWS credentials for the target account and region
# (AWS_PROFILE / AWS_REGION as usual) and the JWT secret parameter (docs/deployment.md, step 1).
#
#   STACK      stack name (default: samconfig.toml's, vendfleet)
#   MAP_TILE_URL  the planning map's tile URL template for config.json (default: none); allow its
#              origin with the MapTileOrigin parameter
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
cd "$root"
stack="${STACK:-vendfleet}"

if command -v aws >/dev/null; then
    aws=(aws)
else
    ensure_venv awscli requirements-awscli.txt aws
    aws=("$root/.venv-awscli/bin/aws")
fi

infra/sam.sh build --beta-features
if "${aws[@]}" cloudformation describe-stacks --stack-name "$stack" >/dev/null 2>&1; then
    infra/sam.sh deploy --stack-name "$stack"
else
    infra/sam.sh deploy --guided --stack-name "$stack"
fi

output() {
    "${aws[@]}" cloudformation describe-stacks --stack-name "$stack" \
        --query "Stacks[0].Outputs[?OutputKey=='$1'].OutputValue" --output text
}
bucket="$(output WebBucketName)"
distribution="$(output WebDistributionId)"
url="$(output WebUrl)"

(cd web && npm ci --no-audit --no-fund && npm run build)
# Hashed assets never change: cached a year, immutable. Old ones stay for pages already open.
"${aws[@]}" s3 sync web/dist/assets "s3://$bucket/assets" \
    --cache-control "public, max-age=31536000, immutable"
# Everything else is checked on each load.
"${aws[@]}" s3 sync web/dist "s3://$bucket" --exclude "assets/*" --exclude config.json \
    --cache-control "no-cache" --delete
# The API is on the same origin (/api/*, /auth/* through the distribution): an empty base URL.
python3 -c 'import json, sys; print(json.dumps({"apiBaseUrl": "", "mapTileUrl": sys.argv[1]}))' \
    "${MAP_TILE_URL:-}" > target/config.json
"${aws[@]}" s3 cp target/config.json "s3://$bucket/config.json" \
    --content-type application/json --cache-control "no-cache"
"${aws[@]}" cloudfront create-invalidation --distribution-id "$distribution" \
    --paths "/index.html" "/config.json" "/" >/dev/null
echo "Vendfleet is at $url (the distribution takes a few minutes to deploy the first time)"
