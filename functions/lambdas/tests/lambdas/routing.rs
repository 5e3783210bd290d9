//! The routing proof of the AWS deployment. It reads `template.yaml` (the HTTP API's routes,
//! the web distribution's behaviours and their CloudFront functions) and each area's operations
//! (the OpenAPI document's, split by the function that serves them), then sends every operation
//! the way a browser would: through the distribution's path patterns, its viewer-request
//! function (run in Node, as written in the template), API Gateway's route selection and the
//! function's own path restoration. It checks that:
//! - every operation reaches a function whose router serves it (its area's);
//! - every route is used by some operation (no route reaches a function at a path it does not
//!   serve, no catch-all, no `$default`);
//! - paths outside the API reach no function;
//! - the distribution forwards the API uncached with every header and query string.
//!
//! API Gateway's route selection for HTTP APIs, as documented ("Routing API requests"): a route
//! with the request's method beats `ANY`; a full match beats routes with path variables; among
//! those the most specific wins (a literal segment beats `{var}`, which beats a greedy
//! `{proxy+}`); then `$default`; else 404. A `{var}` matches one non-empty segment and
//! `{proxy+}` one or more (never an empty remainder: that is why list paths need the
//! CloudFront function at all).

use serde_norway::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::process::{Command, Stdio};
use vendfleet_lambdas::{restored_path, API_FUNCTIONS, TRAILING_SLASH_HEADER};

const TEMPLATE: &str = include_str!("../../../../template.yaml");
const CACHING_DISABLED: &str = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad";
const ALL_VIEWER_EXCEPT_HOST: &str = "b689b0a8-53d0-40ab-baf2-68738e2966ac";

fn template() -> Value {
    serde_norway::from_str(TEMPLATE).expect("template.yaml parses")
}

/// Strips a CloudFormation short-form tag (`!Ref X` → `X`).
fn untag(v: &Value) -> &Value {
    match v {
        Value::Tagged(t) => &t.value,
        other => other,
    }
}

fn text(v: &Value) -> String {
    untag(v).as_str().unwrap_or_default().to_string()
}

/// One HTTP API route of the template.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Route {
    method: String,
    path: String,
    /// The function's logical id and its binary.
    function: String,
    binary: String,
}

fn routes(t: &Value) -> Vec<Route> {
    let mut out = Vec::new();
    for (id, res) in t["Resources"].as_mapping().unwrap() {
        if res["Type"] != "AWS::Serverless::Function" {
            continue;
        }
        let Some(events) = res["Properties"]["Events"].as_mapping() else {
            continue;
        };
        for (_, event) in events {
            if event["Type"] != "HttpApi" {
                continue;
            }
            let p = &event["Properties"];
            out.push(Route {
                method: text(&p["Method"]).to_uppercase(),
                path: text(&p["Path"]),
                function: id.as_str().unwrap().to_string(),
                binary: text(&res["Metadata"]["BuildProperties"]["Binary"]),
            });
        }
    }
    out
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
enum Segment {
    Greedy,
    Variable,
    Literal,
}

/// How specific a route is, segment by segment (compared lexicographically).
fn specificity(route: &Route) -> (bool, Vec<Segment>, bool) {
    let segments: Vec<Segment> = route
        .path
        .split('/')
        .skip(1)
        .map(|s| match s {
            s if s.starts_with('{') && s.ends_with("+}") => Segment::Greedy,
            s if s.starts_with('{') => Segment::Variable,
            _ => Segment::Literal,
        })
        .collect();
    let full = !segments.iter().any(|s| *s != Segment::Literal);
    (full, segments, route.method != "ANY")
}

fn matches(route: &Route, method: &str, path: &str) -> bool {
    if route.method != "ANY" && route.method != method {
        return false;
    }
    let pattern: Vec<&str> = route.path.split('/').skip(1).collect();
    let request: Vec<&str> = path.split('/').skip(1).collect();
    for (i, p) in pattern.iter().enumerate() {
        if p.starts_with('{') && p.ends_with("+}") {
            let rest = request[i.min(request.len())..].join("/");
            return !rest.is_empty();
        }
        match request.get(i) {
            Some(r) if p.starts_with('{') => {
                if r.is_empty() {
                    return false;
                }
            }
            Some(r) if r == p => {}
            _ => return false,
        }
    }
    pattern.len() == request.len()
}

/// API Gateway's choice among the routes for a request, or `None` (404).
fn select<'a>(routes: &'a [Route], method: &str, path: &str) -> Option<&'a Route> {
    routes
        .iter()
        .filter(|r| matches(r, method, path))
        .max_by_key(|r| specificity(r))
}

/// A request path for an operation's path template: each `{name}` becomes a sample id.
fn sample(template: &str) -> String {
    template
        .split('/')
        .map(|s| if s.starts_with('{') { "01jsample7x" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

fn serves(area_ops: &[(String, String)], method: &str, path: &str) -> bool {
    area_ops.iter().any(|(m, template)| {
        m == method
            && template.split('/').count() == path.split('/').count()
            && template
                .split('/')
                .zip(path.split('/'))
                .all(|(t, p)| t == p || (t.starts_with('{') && !p.is_empty()))
    })
}

/// One cache behaviour of the distribution: its path pattern (`None` for the default), its
/// origin and its viewer-request function's code.
struct Behaviour {
    pattern: Option<String>,
    origin: String,
    function: Option<String>,
    raw: Value,
}

fn distribution(t: &Value) -> (Vec<Behaviour>, String) {
    let resources = t["Resources"].as_mapping().unwrap();
    let (_, dist) = resources
        .iter()
        .find(|(_, r)| r["Type"] == "AWS::CloudFront::Distribution")
        .expect("the template has the web distribution");
    let config = &dist["Properties"]["DistributionConfig"];
    let function_code = |b: &Value| -> Option<String> {
        let assoc = b["FunctionAssociations"].as_sequence()?;
        let arn = assoc.iter().find(|a| a["EventType"] == "viewer-request")?;
        let target = text(&arn["FunctionARN"]);
        let id = target.split('.').next().unwrap();
        Some(text(&t["Resources"][id]["Properties"]["FunctionCode"]))
    };
    let mut behaviours: Vec<Behaviour> = config["CacheBehaviors"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|b| Behaviour {
            pattern: Some(text(&b["PathPattern"])),
            origin: text(&b["TargetOriginId"]),
            function: function_code(b),
            raw: b.clone(),
        })
        .collect();
    let default = &config["DefaultCacheBehavior"];
    behaviours.push(Behaviour {
        pattern: None,
        origin: text(&default["TargetOriginId"]),
        function: function_code(default),
        raw: default.clone(),
    });
    let api_origin = config["Origins"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|o| text(&o["DomainName"]).contains("execute-api"))
        .map(|o| text(&o["Id"]))
        .expect("an origin on the HTTP API");
    (behaviours, api_origin)
}

/// A CloudFront path pattern; the template's all end in one `*` (any run of characters).
fn glob(pattern: &str, path: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) if !prefix.contains('*') => path.starts_with(prefix),
        _ => pattern == path,
    }
}

fn behaviour<'a>(behaviours: &'a [Behaviour], path: &str) -> &'a Behaviour {
    behaviours
        .iter()
        .find(|b| b.pattern.as_deref().is_none_or(|p| glob(p, path)))
        .unwrap()
}

/// Runs a CloudFront Functions viewer-request handler in Node on each `(uri, headers)`;
/// answers the request URIs and headers it passes on.
fn run_cloudfront_function(
    code: &str,
    requests: &[(String, BTreeMap<String, String>)],
) -> Vec<(String, BTreeMap<String, String>)> {
    const DRIVER: &str = r#"
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  const { code, requests } = JSON.parse(input);
  const handler = new Function(code + '\nreturn handler;')();
  const out = requests.map(([uri, headers]) => {
    const request = { method: 'GET', uri, querystring: {}, cookies: {}, headers: {} };
    for (const [k, v] of Object.entries(headers)) request.headers[k] = { value: v };
    const r = handler({ version: '1.0', context: { eventType: 'viewer-request' }, viewer: { ip: '192.0.2.1' }, request });
    const h = {};
    for (const [k, v] of Object.entries(r.headers || {})) h[k] = v.value;
    return [r.uri, h];
  });
  process.stdout.write(JSON.stringify(out));
});
"#;
    let mut child = Command::new("node")
        .args(["-e", DRIVER])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs the CloudFront functions (it is installed for the web app)");
    let input = serde_json::json!({ "code": code, "requests": requests });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the CloudFront function failed");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Where a viewer request ends up: the behaviour's origin, and on the API the route and the
/// path the function's router sees.
#[derive(Debug)]
enum Outcome {
    Web(String),
    /// The path API Gateway saw (read in failure messages).
    #[allow(dead_code)]
    NoRoute(String),
    Function {
        route: Route,
        path: String,
    },
}

fn send(
    behaviours: &[Behaviour],
    api_origin: &str,
    routes: &[Route],
    requests: &[(&str, String, BTreeMap<String, String>)],
) -> Vec<Outcome> {
    // The viewer-request function of each request's behaviour, one Node run per function.
    let mut passed: Vec<Option<(String, BTreeMap<String, String>)>> = vec![None; requests.len()];
    let mut by_code: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, (_, path, headers)) in requests.iter().enumerate() {
        match &behaviour(behaviours, path).function {
            Some(code) => by_code.entry(code.clone()).or_default().push(i),
            None => passed[i] = Some((path.clone(), headers.clone())),
        }
    }
    for (code, indices) in by_code {
        let batch: Vec<_> = indices
            .iter()
            .map(|&i| (requests[i].1.clone(), requests[i].2.clone()))
            .collect();
        for (i, result) in indices
            .into_iter()
            .zip(run_cloudfront_function(&code, &batch))
        {
            passed[i] = Some(result);
        }
    }
    requests
        .iter()
        .zip(passed)
        .map(|((method, path, _), passed)| {
            let (uri, headers) = passed.unwrap();
            let b = behaviour(behaviours, path);
            if b.origin != api_origin {
                return Outcome::Web(uri);
            }
            match select(routes, method, &uri) {
                None => Outcome::NoRoute(uri),
                Some(route) => Outcome::Function {
                    route: route.clone(),
                    path: restored_path(
                        &uri,
                        headers.get(TRAILING_SLASH_HEADER).map(String::as_str) == Some("1"),
                    )
                    .into_owned(),
                },
            }
        })
        .collect()
}

#[test]
fn every_operation_reaches_the_function_of_its_area_and_no_other_path_does() {
    let t = template();
    let routes = routes(&t);
    let (behaviours, api_origin) = distribution(&t);

    // The template's API functions are exactly the binaries that serve areas.
    let template_binaries: BTreeSet<&str> = routes.iter().map(|r| r.binary.as_str()).collect();
    let api_binaries: BTreeSet<&str> = API_FUNCTIONS.iter().map(|(b, _)| *b).collect();
    assert_eq!(template_binaries, api_binaries);
    for r in &routes {
        assert!(r.path.starts_with('/') && !r.path.ends_with('/'), "{r:?}");
        assert!(!r.path.contains("$default"), "no $default route: {r:?}");
    }

    // Each binary's operations, and every operation once (GET /api/openapi.json is served by
    // the users function).
    let served: BTreeMap<&str, Vec<(String, String)>> = API_FUNCTIONS
        .iter()
        .map(|(binary, area)| (*binary, vendfleet_http::area_operations(*area)))
        .collect();
    let operations: BTreeSet<(String, String)> = served.values().flatten().cloned().collect();
    assert!(operations.len() > 150, "{} operations", operations.len());
    let whole_api: BTreeSet<(String, String)> =
        vendfleet_http::operations(&vendfleet_http::openapi())
            .into_iter()
            .collect();
    assert!(
        whole_api.is_subset(&operations),
        "operations no area's function serves: {:?}",
        whole_api.difference(&operations).collect::<Vec<_>>()
    );

    let requests: Vec<(&str, String, BTreeMap<String, String>)> = operations
        .iter()
        .map(|(m, p)| (m.as_str(), sample(p), BTreeMap::new()))
        .collect();
    let outcomes = send(&behaviours, &api_origin, &routes, &requests);
    let mut used: BTreeSet<Route> = BTreeSet::new();
    for ((method, template), outcome) in operations.iter().zip(outcomes) {
        let Outcome::Function { route, path } = outcome else {
            panic!("{method} {template} reaches no function: {outcome:?}");
        };
        assert!(
            serves(&served[route.binary.as_str()], method, &path),
            "{method} {template} reaches {} ({}) as {path}, which does not serve it",
            route.function,
            route.binary
        );
        used.insert(route);
    }
    let unused: Vec<&Route> = routes.iter().filter(|r| !used.contains(r)).collect();
    assert!(
        unused.is_empty(),
        "routes no operation uses reach functions at paths they do not serve: {unused:?}"
    );

    // Paths outside the API reach no function; the web's own paths stay with the bucket, and
    // a viewer's own trailing-slash mark does not reach the router.
    let header = |v: &str| BTreeMap::from([(TRAILING_SLASH_HEADER.to_string(), v.to_string())]);
    let strays: Vec<(&str, String, BTreeMap<String, String>)> = vec![
        ("GET", "/api/".into(), BTreeMap::new()),
        ("GET", "/api/nothing-here/".into(), BTreeMap::new()),
        ("GET", "/api/clients-and-more/".into(), BTreeMap::new()),
        ("POST", "/webhooks/machines/".into(), BTreeMap::new()),
        ("GET", "/webhooks/other".into(), BTreeMap::new()),
        ("GET", "/auth/".into(), BTreeMap::new()),
        (
            "GET",
            "/api/refills/01jsample7x/products".into(),
            header("1"),
        ),
    ];
    let outcomes = send(&behaviours, &api_origin, &routes, &strays);
    for ((method, path, _), outcome) in strays.iter().zip(&outcomes).take(6) {
        assert!(
            matches!(outcome, Outcome::NoRoute(_)),
            "{method} {path} should reach no function: {outcome:?}"
        );
    }
    match &outcomes[6] {
        Outcome::Function { path, .. } => assert_eq!(path, "/api/refills/01jsample7x/products"),
        other => panic!("{other:?}"),
    }

    let screens: Vec<(&str, String, BTreeMap<String, String>)> = [
        "/",
        "/dashboard",
        "/machines/01jsample7x/stock",
        "/assets/index-Bx81kq.js",
        "/config.json",
        "/favicon.svg",
    ]
    .into_iter()
    .map(|p| ("GET", p.to_string(), BTreeMap::new()))
    .collect();
    let outcomes = send(&behaviours, &api_origin, &routes, &screens);
    let uris: Vec<String> = outcomes
        .into_iter()
        .map(|o| match o {
            Outcome::Web(uri) => uri,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        uris,
        [
            "/index.html",
            "/index.html",
            "/index.html",
            "/assets/index-Bx81kq.js",
            "/config.json",
            "/favicon.svg"
        ]
    );
}

#[test]
fn the_distribution_forwards_the_api_uncached_and_sets_security_headers() {
    let t = template();
    let (behaviours, api_origin) = distribution(&t);
    let api: Vec<&Behaviour> = behaviours
        .iter()
        .filter(|b| b.origin == api_origin)
        .collect();
    let patterns: BTreeSet<&str> = api.iter().filter_map(|b| b.pattern.as_deref()).collect();
    assert_eq!(
        patterns,
        BTreeSet::from(["/api/*", "/auth/*", "/webhooks/*"])
    );
    for b in api {
        assert_eq!(
            text(&b.raw["CachePolicyId"]),
            CACHING_DISABLED,
            "{:?}",
            b.pattern
        );
        assert_eq!(
            text(&b.raw["OriginRequestPolicyId"]),
            ALL_VIEWER_EXCEPT_HOST
        );
        let methods: BTreeSet<String> = b.raw["AllowedMethods"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(text)
            .collect();
        assert_eq!(methods.len(), 7, "every method reaches the API");
    }
    let assets = behaviours
        .iter()
        .find(|b| b.pattern.as_deref() == Some("/assets/*"))
        .unwrap();
    let policy = text(&assets.raw["CachePolicyId"]);
    let ttl = &t["Resources"][policy.as_str()]["Properties"]["CachePolicyConfig"];
    assert_eq!(ttl["MinTTL"].as_u64(), Some(31_536_000));

    // Every behaviour answers with the security headers.
    let resources = t["Resources"].as_mapping().unwrap();
    for b in &behaviours {
        let id = text(&b.raw["ResponseHeadersPolicyId"]);
        let headers = &resources[id.as_str()]["Properties"]["ResponseHeadersPolicyConfig"]
            ["SecurityHeadersConfig"];
        let csp = match untag(&headers["ContentSecurityPolicy"]["ContentSecurityPolicy"]) {
            Value::Sequence(s) => text(&s[0]),
            other => text(other),
        };
        for directive in [
            "default-src 'self'",
            "script-src 'self'",
            "connect-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
        ] {
            assert!(csp.contains(directive), "{directive} in {csp}");
        }
        assert!(headers["StrictTransportSecurity"]["AccessControlMaxAgeSec"]
            .as_u64()
            .is_some_and(|s| s >= 31_536_000));
        assert_eq!(headers["FrameOptions"]["FrameOption"], "DENY");
        assert!(headers["ContentTypeOptions"]["Override"].as_bool() == Some(true));
        assert!(!text(&headers["ReferrerPolicy"]["ReferrerPolicy"]).is_empty());
    }

    // The web bucket is private: read by this distribution only.
    let bucket = &resources["WebBucket"]["Properties"];
    assert_eq!(
        bucket["PublicAccessBlockConfiguration"]["RestrictPublicBuckets"].as_bool(),
        Some(true)
    );
    let web_origin = untag(
        &t["Resources"]["WebDistribution"]["Properties"]["DistributionConfig"]["Origins"][0]
            ["OriginAccessControlId"],
    )
    .as_str()
    .unwrap();
    assert!(web_origin.starts_with("WebOriginAccessControl"));
}
