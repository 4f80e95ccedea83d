//! Containers and volumes as kubectl's `describeContainers` and `describeVolumes` print
//! them, for a Pod and for a controller's pod template: image, ports, command, state,
//! resources, probes, environment (names and where values come from: a Secret's value
//! is never read), mounts, and each volume's source.

use super::describe_writer::{Tabbed, labels, plain, rfc1123z};
use super::fields::str_at;
use crate::kube::quantity::Quantity;
use serde_json::Value;

/// `title:` then each container; `statuses` is `None` for a pod template (no status at
/// all), and `pod` resolves `fieldRef` values as kubectl does for a Pod.
pub(super) fn describe_containers(
    pod: &Value,
    title: &str,
    containers: Option<&Vec<Value>>,
    statuses: Option<&[Value]>,
    w: &mut Tabbed,
    space: &str,
) {
    let containers = containers.map_or(&[][..], Vec::as_slice);
    let none = if containers.is_empty() { " <none>" } else { "" };
    w.line(0, &format!("{space}{title}:{none}"));
    let name_indent = if space.is_empty() { "" } else { " " };
    for c in containers {
        let name = str_at(c, "/name");
        let status = statuses.and_then(|s| s.iter().find(|s| str_at(s, "/name") == name));
        w.line(1, &format!("{name_indent}{name}:"));
        if let Some(st) = status {
            w.line(2, &format!("Container ID:\t{}", str_at(st, "/containerID")));
        }
        w.line(2, &format!("Image:\t{}", str_at(c, "/image")));
        if let Some(st) = status {
            w.line(2, &format!("Image ID:\t{}", str_at(st, "/imageID")));
        }
        ports(c, w);
        if let Some(p) = c.pointer("/securityContext/seccompProfile") {
            w.line(2, &format!("SeccompProfile:\t{}", str_at(p, "/type")));
        }
        for (key, title) in [("command", "Command"), ("args", "Args")] {
            let Some(items) = c
                .get(key)
                .and_then(Value::as_array)
                .filter(|a| !a.is_empty())
            else {
                continue;
            };
            w.line(2, &format!("{title}:"));
            for item in items {
                for part in plain(item).split('\n') {
                    w.line(3, part);
                }
            }
        }
        if let Some(st) = status {
            state(w, "State", st.get("state"));
            if let Some(last) = st
                .pointer("/lastState/terminated")
                .filter(|t| t.is_object())
            {
                state(
                    w,
                    "Last State",
                    Some(&serde_json::json!({ "terminated": last })),
                );
            }
            let ready = st.get("ready").and_then(Value::as_bool) == Some(true);
            w.line(
                2,
                &format!("Ready:\t{}", if ready { "True" } else { "False" }),
            );
            let restarts = st.get("restartCount").map(plain).unwrap_or("0".into());
            w.line(2, &format!("Restart Count:\t{restarts}"));
        }
        if let Some(r) = c.get("resources") {
            resources(r, w, 2);
        }
        for (key, title) in [
            ("livenessProbe", "Liveness"),
            ("readinessProbe", "Readiness"),
            ("startupProbe", "Startup"),
        ] {
            if let Some(p) = c.get(key).filter(|p| p.is_object()) {
                w.line(2, &format!("{title}:\t{}", probe(p)));
            }
        }
        env_from(c, w);
        env(pod, c, w);
        mounts(c, w);
    }
}

/// `Port:`/`Ports:` and `Host Port:`/`Host Ports:` (`80/TCP (http)`, `0/TCP` when no
/// host port), `<none>` without ports.
fn ports(c: &Value, w: &mut Tabbed) {
    let ports: Vec<&Value> = c
        .get("ports")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    for (key, one, many) in [
        ("containerPort", "Port", "Ports"),
        ("hostPort", "Host Port", "Host Ports"),
    ] {
        let text: Vec<String> = ports
            .iter()
            .map(|p| {
                let number = p.get(key).map(plain).unwrap_or("0".into());
                let protocol = p.get("protocol").map(plain).unwrap_or("TCP".into());
                match str_at(p, "/name") {
                    "" => format!("{number}/{protocol}"),
                    name => format!("{number}/{protocol} ({name})"),
                }
            })
            .collect();
        match text.len() {
            0 => w.line(2, &format!("{one}:\t<none>")),
            1 => w.line(2, &format!("{one}:\t{}", text[0])),
            _ => w.line(2, &format!("{many}:\t{}", text.join(", "))),
        }
    }
}

/// kubectl's `describeStatus`: Running with its start; Waiting with its reason;
/// Terminated with reason, message, exit code, signal, start and finish.
fn state(w: &mut Tabbed, title: &str, state: Option<&Value>) {
    let at = |d: &Value, k: &str| rfc1123z(str_at(d, &format!("/{k}")));
    if let Some(d) = state
        .and_then(|s| s.get("running"))
        .filter(|d| d.is_object())
    {
        w.line(2, &format!("{title}:\tRunning"));
        w.line(3, &format!("Started:\t{}", at(d, "startedAt")));
    } else if let Some(d) = state
        .and_then(|s| s.get("terminated"))
        .filter(|d| d.is_object())
    {
        w.line(2, &format!("{title}:\tTerminated"));
        for (key, label) in [("reason", "Reason"), ("message", "Message")] {
            let text = str_at(d, &format!("/{key}"));
            if !text.is_empty() {
                w.line(3, &format!("{label}:\t{text}"));
            }
        }
        let code = d.get("exitCode").map(plain).unwrap_or("0".into());
        w.line(3, &format!("Exit Code:\t{code}"));
        if let Some(signal) = d.get("signal").and_then(Value::as_i64).filter(|s| *s > 0) {
            w.line(3, &format!("Signal:\t{signal}"));
        }
        w.line(3, &format!("Started:\t{}", at(d, "startedAt")));
        w.line(3, &format!("Finished:\t{}", at(d, "finishedAt")));
    } else {
        w.line(2, &format!("{title}:\tWaiting"));
        let reason = state.map_or("", |s| str_at(s, "/waiting/reason"));
        if !reason.is_empty() {
            w.line(3, &format!("Reason:\t{reason}"));
        }
    }
}

/// `Limits:` and `Requests:`, each resource on its own line, sorted by name.
pub(super) fn resources(r: &Value, w: &mut Tabbed, level: usize) {
    for (key, title) in [("limits", "Limits"), ("requests", "Requests")] {
        let Some(m) = r
            .get(key)
            .and_then(Value::as_object)
            .filter(|m| !m.is_empty())
        else {
            continue;
        };
        w.line(level, &format!("{title}:"));
        let mut names: Vec<&String> = m.keys().collect();
        names.sort();
        for n in names {
            w.line(level + 1, &format!("{n}:\t{}", plain(&m[n])));
        }
    }
}

/// kubectl's `DescribeProbe` as kubectl 1.37.1 prints it: `http-get https://:6443/livez
/// delay=0s timeout=1s period=10s successThreshold=1 failureThreshold=3` (older kubectl
/// wrote `#success=1 #failure=3`). The URL is built as Go's `url.URL` writes one, which
/// puts a `/` before a path that lacks it.
fn probe(p: &Value) -> String {
    let num = |k: &str, default: i64| {
        p.get(k)
            .and_then(Value::as_i64)
            .unwrap_or(default)
            .to_string()
    };
    let attrs = format!(
        "delay={}s timeout={}s period={}s successThreshold={} failureThreshold={}",
        num("initialDelaySeconds", 0),
        num("timeoutSeconds", 1),
        num("periodSeconds", 10),
        num("successThreshold", 1),
        num("failureThreshold", 3),
    );
    if let Some(cmd) = p.pointer("/exec/command").and_then(Value::as_array) {
        let words: Vec<String> = cmd.iter().map(plain).collect();
        return format!("exec [{}] {attrs}", words.join(" "));
    }
    if let Some(h) = p.get("httpGet").filter(|h| h.is_object()) {
        let port = h.get("port").map(plain).unwrap_or_default();
        let host = str_at(h, "/host");
        let host = if port.is_empty() {
            host.to_string()
        } else if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        };
        let path = str_at(h, "/path");
        let slash = if !path.is_empty() && !path.starts_with('/') && !host.is_empty() {
            "/"
        } else {
            ""
        };
        let scheme = str_at(h, "/scheme").to_ascii_lowercase();
        let scheme = if scheme.is_empty() {
            String::new()
        } else {
            format!("{scheme}:")
        };
        return format!("http-get {scheme}//{host}{slash}{path} {attrs}");
    }
    if let Some(t) = p.get("tcpSocket").filter(|t| t.is_object()) {
        let port = t.get("port").map(plain).unwrap_or_default();
        return format!("tcp-socket {}:{port} {attrs}", str_at(t, "/host"));
    }
    if let Some(g) = p.get("grpc").filter(|g| g.is_object()) {
        let port = g.get("port").map(plain).unwrap_or_default();
        return format!("grpc <pod>:{port} {} {attrs}", str_at(g, "/service"));
    }
    format!("unknown {attrs}")
}

/// `Environment Variables from:` each ConfigMap or Secret (its name, never its data).
fn env_from(c: &Value, w: &mut Tabbed) {
    let Some(sources) = c
        .get("envFrom")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
    else {
        return;
    };
    w.line(2, "Environment Variables from:");
    for e in sources {
        let (from, r) = match (e.get("configMapRef"), e.get("secretRef")) {
            (Some(r), _) => ("ConfigMap", r),
            (None, Some(r)) => ("Secret", r),
            (None, None) => ("", &Value::Null),
        };
        let optional = optional(r);
        let name = str_at(r, "/name");
        match str_at(e, "/prefix") {
            "" => w.line(3, &format!("{name}\t{from}\tOptional: {optional}")),
            prefix => w.line(
                3,
                &format!("{name}\t{from} with prefix '{prefix}'\tOptional: {optional}"),
            ),
        }
    }
}

fn optional(r: &Value) -> bool {
    r.get("optional").and_then(Value::as_bool) == Some(true)
}

/// `Environment:` each variable: a literal value as the spec holds it, else where the
/// value comes from (`<set to the key 'k' in secret 's'>`), as kubectl prints it.
fn env(pod: &Value, c: &Value, w: &mut Tabbed) {
    let Some(vars) = c
        .get("env")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
    else {
        w.line(2, "Environment:\t<none>");
        return;
    };
    w.line(2, "Environment:");
    for e in vars {
        let name = str_at(e, "/name");
        let Some(from) = e.get("valueFrom").filter(|f| f.is_object()) else {
            let value = e.get("value").map(plain).unwrap_or_default();
            for (i, part) in value.split('\n').enumerate() {
                if i == 0 {
                    w.line(3, &format!("{name}:\t{part}"));
                } else {
                    w.line(3, &format!("\t{part}"));
                }
            }
            continue;
        };
        if let Some(f) = from.get("fieldRef") {
            let path = str_at(f, "/fieldPath");
            let value = field_value(pod, path);
            let version = str_at(f, "/apiVersion");
            w.line(3, &format!("{name}:\t{value} ({version}:{path})"));
        } else if let Some(r) = from.get("resourceFieldRef") {
            let resource = str_at(r, "/resource");
            w.line(
                3,
                &format!("{name}:\t{} ({resource})", resource_value(c, r)),
            );
        } else if let Some(s) = from.get("secretKeyRef") {
            w.line(
                3,
                &format!(
                    "{name}:\t<set to the key '{}' in secret '{}'>\tOptional: {}",
                    str_at(s, "/key"),
                    str_at(s, "/name"),
                    optional(s)
                ),
            );
        } else if let Some(m) = from.get("configMapKeyRef") {
            w.line(
                3,
                &format!(
                    "{name}:\t<set to the key '{}' of config map '{}'>\tOptional: {}",
                    str_at(m, "/key"),
                    str_at(m, "/name"),
                    optional(m)
                ),
            );
        }
    }
}

/// The value a `fieldRef` gives a Pod's container (kubectl resolves them; a pod
/// template has none to resolve: empty).
fn field_value(pod: &Value, path: &str) -> String {
    let bracket = |prefix: &str, map: &str| {
        let key = path
            .strip_prefix(prefix)?
            .strip_suffix("']")?
            .strip_prefix("['")?;
        pod.pointer(&format!("/metadata/{map}"))?
            .get(key)
            .map(plain)
    };
    let pointer = match path {
        "metadata.name" => "/metadata/name",
        "metadata.namespace" => "/metadata/namespace",
        "metadata.uid" => "/metadata/uid",
        "spec.nodeName" => "/spec/nodeName",
        "spec.serviceAccountName" => "/spec/serviceAccountName",
        "status.hostIP" => "/status/hostIP",
        "status.podIP" => "/status/podIP",
        _ => {
            return bracket("metadata.labels", "labels")
                .or_else(|| bracket("metadata.annotations", "annotations"))
                .unwrap_or_default();
        }
    };
    str_at(pod, pointer).to_string()
}

/// The value a `resourceFieldRef` gives (kubectl's `ExtractContainerResourceValue`):
/// the container's request or limit over the divisor, rounded up; an unset cpu or
/// memory limit reads `node allocatable`.
fn resource_value(c: &Value, r: &Value) -> String {
    let resource = str_at(r, "/resource");
    let Some((which, name)) = resource.split_once('.') else {
        return String::new();
    };
    let amount = c
        .pointer(&format!("/resources/{which}/{name}"))
        .and_then(|q| Quantity::parse(&plain(q)).ok())
        .unwrap_or(Quantity::ZERO);
    let divisor = r
        .get("divisor")
        .and_then(|d| Quantity::parse(&plain(d)).ok())
        .filter(|d| !d.is_zero())
        .unwrap_or(Quantity::from_units(1));
    let value = (amount.nanos() + divisor.nanos() - 1).div_euclid(divisor.nanos());
    if value == 0 && which == "limits" && (name == "cpu" || name == "memory") {
        return "node allocatable".into();
    }
    value.to_string()
}

/// `Mounts:` sorted by path, `PATH from VOLUME (ro|rw[,path="SUB"])`; `Devices:`.
fn mounts(c: &Value, w: &mut Tabbed) {
    let mut list: Vec<&Value> = c
        .get("volumeMounts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    if list.is_empty() {
        w.line(2, "Mounts:\t<none>");
    } else {
        w.line(2, "Mounts:");
    }
    list.sort_by_key(|m| str_at(m, "/mountPath"));
    for m in list {
        let mut flags = vec![
            if m.get("readOnly").and_then(Value::as_bool) == Some(true) {
                "ro".to_string()
            } else {
                "rw".to_string()
            },
        ];
        let sub = str_at(m, "/subPath");
        if !sub.is_empty() {
            flags.push(format!("path={sub:?}"));
        }
        w.line(
            3,
            &format!(
                "{} from {} ({})",
                str_at(m, "/mountPath"),
                str_at(m, "/name"),
                flags.join(",")
            ),
        );
    }
    let mut devices: Vec<&Value> = c
        .get("volumeDevices")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    if !devices.is_empty() {
        w.line(2, "Devices:");
        devices.sort_by_key(|d| str_at(d, "/devicePath"));
        for d in devices {
            let line = format!("{} from {}", str_at(d, "/devicePath"), str_at(d, "/name"));
            w.line(3, &line);
        }
    }
}

/// kubectl's `describeVolumes`: each volume and what its source says, in kubectl's
/// words for the common sources; any other source is named by its field.
pub(super) fn describe_volumes(volumes: Option<&Value>, w: &mut Tabbed, space: &str) {
    let volumes: Vec<&Value> = volumes
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    if volumes.is_empty() {
        w.line(0, &format!("{space}Volumes:\t<none>"));
        return;
    }
    w.line(0, &format!("{space}Volumes:"));
    let name_indent = if space.is_empty() { "" } else { " " };
    for v in volumes {
        w.line(1, &format!("{name_indent}{}:", str_at(v, "/name")));
        volume_source(v, w);
    }
}

fn volume_source(v: &Value, w: &mut Tabbed) {
    let s = |k: &str| str_at(v, k).to_string();
    let flag = |k: &str| v.pointer(k).and_then(Value::as_bool) == Some(true);
    let lines: Vec<String> = if let Some(h) = v.get("hostPath") {
        let kind = h.get("type").map_or("<none>".into(), plain);
        vec![
            "Type:\tHostPath (bare host directory volume)".into(),
            format!("Path:\t{}", str_at(h, "/path")),
            format!("HostPathType:\t{kind}"),
        ]
    } else if let Some(e) = v.get("emptyDir") {
        let limit = e
            .get("sizeLimit")
            .map(plain)
            .filter(|l| Quantity::parse(l).is_ok_and(|q| !q.is_zero()))
            .unwrap_or("<unset>".into());
        vec![
            "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)".into(),
            format!("Medium:\t{}", str_at(e, "/medium")),
            format!("SizeLimit:\t{limit}"),
        ]
    } else if v.get("secret").is_some() {
        vec![
            "Type:\tSecret (a volume populated by a Secret)".into(),
            format!("SecretName:\t{}", s("/secret/secretName")),
            format!("Optional:\t{}", flag("/secret/optional")),
        ]
    } else if v.get("configMap").is_some() {
        vec![
            "Type:\tConfigMap (a volume populated by a ConfigMap)".into(),
            format!("Name:\t{}", s("/configMap/name")),
            format!("Optional:\t{}", flag("/configMap/optional")),
        ]
    } else if let Some(p) = v.get("projected") {
        projected(p)
    } else if v.get("persistentVolumeClaim").is_some() {
        vec![
            "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)".into(),
            format!("ClaimName:\t{}", s("/persistentVolumeClaim/claimName")),
            format!("ReadOnly:\t{}", flag("/persistentVolumeClaim/readOnly")),
        ]
    } else if v.get("nfs").is_some() {
        vec![
            "Type:\tNFS (an NFS mount that lasts the lifetime of a pod)".into(),
            format!("Server:\t{}", s("/nfs/server")),
            format!("Path:\t{}", s("/nfs/path")),
            format!("ReadOnly:\t{}", flag("/nfs/readOnly")),
        ]
    } else if let Some(d) = v.get("downwardAPI") {
        let mut l = vec![
            "Type:\tDownwardAPI (a volume populated by information about the pod)".into(),
            "Items:".into(),
        ];
        for item in d
            .get("items")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            for from in ["/fieldRef/fieldPath", "/resourceFieldRef/resource"] {
                if let Some(f) = item.pointer(from) {
                    l.push(format!("  {} -> {}", plain(f), str_at(item, "/path")));
                }
            }
        }
        l
    } else if v.get("csi").is_some() {
        let l = vec![
            "Type:\tCSI (a Container Storage Interface (CSI) volume source)".into(),
            format!("Driver:\t{}", s("/csi/driver")),
            format!("FSType:\t{}", s("/csi/fsType")),
            format!("ReadOnly:\t{}", flag("/csi/readOnly")),
        ];
        emit_volume_lines(&l, w);
        labels(
            w,
            "    ",
            "VolumeAttributes",
            v.pointer("/csi/volumeAttributes"),
        );
        return;
    } else if v.get("ephemeral").is_some() {
        vec!["Type:\tEphemeralVolume (an inline specification for a volume that gets created and deleted with the pod)".into()]
    } else {
        let other = v
            .as_object()
            .and_then(|m| m.keys().find(|k| *k != "name"))
            .map_or("<unknown>".to_string(), |k| k.clone());
        vec![format!("Type:\t{other}")]
    };
    emit_volume_lines(&lines, w);
}

/// The lines of one volume, four spaces in (kubectl writes them at `LEVEL_2`).
fn emit_volume_lines(lines: &[String], w: &mut Tabbed) {
    for l in lines {
        w.line(2, l);
    }
}

fn projected(p: &Value) -> Vec<String> {
    let mut l = vec![
        "Type:\tProjected (a volume that contains injected data from multiple sources)".to_string(),
    ];
    for src in p
        .get("sources")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(s) = src.get("secret") {
            l.push(format!("SecretName:\t{}", str_at(s, "/name")));
            l.push(format!("Optional:\t{}", optional(s)));
        } else if src.get("downwardAPI").is_some() {
            l.push("DownwardAPI:\ttrue".into());
        } else if let Some(c) = src.get("configMap") {
            l.push(format!("ConfigMapName:\t{}", str_at(c, "/name")));
            l.push(format!("Optional:\t{}", optional(c)));
        } else if let Some(t) = src.get("serviceAccountToken") {
            let secs = t.get("expirationSeconds").map(plain).unwrap_or_default();
            l.push(format!("TokenExpirationSeconds:\t{secs}"));
        }
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn probe_urls_as_go_writes_them() {
        let p = json!({"httpGet": {"path": "livez", "port": 6443, "scheme": "HTTPS"}});
        assert_eq!(
            probe(&p),
            "http-get https://:6443/livez delay=0s timeout=1s period=10s successThreshold=1 failureThreshold=3"
        );
        let p = json!({"httpGet": {"path": "/healthz", "port": "http", "host": "fd00::1", "scheme": "HTTP"}, "periodSeconds": 5});
        assert!(
            probe(&p).starts_with(
                "http-get http://[fd00::1]:http/healthz delay=0s timeout=1s period=5s"
            )
        );
        let p = json!({"exec": {"command": ["cat", "/tmp/ok"]}});
        assert!(probe(&p).starts_with("exec [cat /tmp/ok] delay=0s"));
    }

    #[test]
    fn resource_field_values() {
        let c = json!({"resources": {"requests": {"cpu": "250m", "memory": "1Gi"}}});
        let r = |res: &str| json!({"resource": res});
        assert_eq!(resource_value(&c, &r("requests.cpu")), "1");
        assert_eq!(resource_value(&c, &r("requests.memory")), "1073741824");
        assert_eq!(resource_value(&c, &r("limits.cpu")), "node allocatable");
        let mi = json!({"resource": "requests.memory", "divisor": "1Mi"});
        assert_eq!(resource_value(&c, &mi), "1024");
    }
}
