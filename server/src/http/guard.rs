//! What every request passes before its route: the `Host` it was sent to must be one this
//! server answers to (so a page whose name was rebound to this address gets nothing), and its
//! address must be within its rate of requests.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::config::Config;
use crate::hub::Hub;

/// Refuses a request sent to a host this server does not answer to, or past its address's
/// rate; passes the others on.
pub async fn guard(State(hub): State<Arc<Hub>>, request: Request, next: Next) -> Response {
    if let Some(host) = foreign_host(&hub.config, request.headers()) {
        tracing::warn!(%host, "a request for a host this server does not answer to was refused");
        return (
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "this server does not answer to the host `{host}`: its operator names its hosts with --host\n"
            ),
        )
            .into_response();
    }
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip());
    if let Some(ip) = peer
        && let Err(refused) = hub.rates.http.take(&ip)
    {
        if refused.tell {
            tracing::warn!(%ip, "HTTP requests past the address's rate were refused");
        }
        let seconds = refused.retry_after.as_secs().max(1);
        let mut response = (
            StatusCode::TOO_MANY_REQUESTS,
            format!("too many requests from your address: try again in {seconds} s\n"),
        )
            .into_response();
        if let Ok(value) = HeaderValue::from_str(&seconds.to_string()) {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        // The connection closes: what else it has pipelined is not read, and the address's
        // next connections are turned away as they come until its rate allows one again.
        response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        return response;
    }
    next.run(request).await
}

/// The request's host when this server does not answer to it, else None. It answers to an
/// address (a name can be rebound to any address, an address cannot), to `localhost` and its
/// subdomains (which browsers resolve to loopback themselves), to the names of `--host` and to
/// the hosts of `--allow-origin`. A request without `Host` (HTTP/1.0, not a browser) passes.
fn foreign_host(config: &Config, headers: &HeaderMap) -> Option<String> {
    let host = headers.get(header::HOST)?;
    let Ok(host) = host.to_str() else {
        return Some(String::from_utf8_lossy(host.as_bytes()).into_owned());
    };
    let name = host_name(host);
    if is_address(&name) || name == "localhost" || name.ends_with(".localhost") {
        return None;
    }
    let named = config.allowed_hosts.iter().any(|allowed| host_name(allowed) == name);
    let of_origin = config.allowed_origins.iter().any(|origin| {
        let host = origin.split_once("://").map_or(origin.as_str(), |(_, host)| host);
        host_name(host) == name
    });
    if named || of_origin { None } else { Some(host.chars().take(255).collect()) }
}

/// A `Host` value's name, without its port, in lower case, without a final dot.
pub fn host_name(host: &str) -> String {
    let host = host.trim();
    if let Some(rest) = host.strip_prefix('[') {
        // An IPv6 address, bracketed: `[::1]:8080`.
        return rest.split(']').next().unwrap_or_default().to_ascii_lowercase();
    }
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|byte| byte.is_ascii_digit()) => name,
        _ => host,
    };
    name.trim_end_matches('.').to_ascii_lowercase()
}

fn is_address(name: &str) -> bool {
    name.parse::<IpAddr>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(config: &Config, host: &'static str) -> Option<String> {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static(host));
        foreign_host(config, &headers)
    }

    #[test]
    fn addresses_localhost_and_named_hosts_are_answered_and_rebound_names_are_not() {
        let mut config = Config::default();
        for host in [
            "127.0.0.1:8080",
            "192.168.1.20",
            "[::1]:8080",
            "localhost:8080",
            "app.localhost",
            "LOCALHOST.",
        ] {
            assert_eq!(asked(&config, host), None, "{host}");
        }
        assert_eq!(
            asked(&config, "attacker.example:8080").as_deref(),
            Some("attacker.example:8080")
        );
        assert!(asked(&config, "127.0.0.1.attacker.example").is_some());
        assert!(foreign_host(&config, &HeaderMap::new()).is_none(), "no Host: not a browser");
        config.allowed_hosts = vec!["games.example.org".to_owned()];
        config.allowed_origins = vec!["https://play.example.net:8443".to_owned()];
        assert_eq!(asked(&config, "Games.Example.org:8080"), None);
        assert_eq!(asked(&config, "play.example.net"), None);
        assert!(asked(&config, "example.org").is_some());
    }

    #[test]
    fn a_host_name_loses_its_port_and_case() {
        assert_eq!(host_name("Example.ORG:80"), "example.org");
        assert_eq!(host_name("[::1]:8080"), "::1");
        assert_eq!(host_name("example.org."), "example.org");
        assert_eq!(host_name("example.org:x"), "example.org:x");
    }
}
