//! An Ingress whose IngressClass does not exist (or that has none and no default).

use crate::declare_rule;
use crate::kube::meta::ObjectRef;
use crate::rules::evidence;
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};

declare_rule! {
    /// An Ingress's IngressClass does not exist, or it names none and no class is default.
    ///
    /// Then no controller may pick it up.
    /// An ingress controller serves the Ingresses of its class (`spec.ingressClassName`, or
    /// the deprecated `kubernetes.io/ingress.class` annotation); a class-less Ingress gets
    /// the class marked `ingressclass.kubernetes.io/is-default-class: "true"`. Recomputed
    /// against the bundle's IngressClasses; when the bundle holds none they may just not
    /// have been collected, and nothing is reported. A class named only by the deprecated
    /// annotation needs no IngressClass object, so that case is only `info`. An empty
    /// `status.loadBalancer` corroborates it (no controller published an address); when a
    /// controller did publish one, something serves the Ingress anyway: only `info`.
    pub static INGRESS_CLASS_MISSING = {
        id: "traffic/ingress-class-missing",
        stage: Stage::Traffic,
        severity: Severity::Warning,
        fallback: false,
        // Local: each Ingress with the cluster's IngressClasses.
        reach: Reach::Local,
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    if !snap.has_kind("IngressClass") {
        return Vec::new();
    }
    let classes = snap.ingress_classes();
    let names: Vec<&str> = classes
        .iter()
        .map(|(_, c)| c.metadata.name.as_str())
        .collect();
    let defaults: Vec<&str> = classes
        .iter()
        .filter(|(_, c)| c.is_default())
        .map(|(_, c)| c.metadata.name.as_str())
        .collect();
    let mut out = Vec::new();
    for (id, ing) in snap.ingresses() {
        let (cause, why, path): (String, String, Vec<&str>) = match ing.class_name() {
            Some(c) if !names.contains(&c) => (
                format!("class-missing:{c}"),
                if ing.spec.ingress_class_name.is_some() {
                    format!(
                        "its IngressClass {c:?} is not in the cluster (the bundle holds {})",
                        names.join(", ")
                    )
                } else {
                    format!(
                        "it names class {c:?} by the deprecated kubernetes.io/ingress.class annotation and no IngressClass {c:?} exists (the bundle holds {}); a controller configured for that class name may still serve it",
                        names.join(", ")
                    )
                },
                if ing.spec.ingress_class_name.is_some() {
                    vec!["spec", "ingressClassName"]
                } else {
                    vec!["metadata", "annotations", "kubernetes.io/ingress.class"]
                },
            ),
            Some(_) => continue,
            None if defaults.is_empty() => (
                "no-class".into(),
                format!(
                    "it names no IngressClass and none of the cluster's classes ({}) is marked default",
                    names.join(", ")
                ),
                vec!["spec"],
            ),
            None => continue,
        };
        let served = !ing.status.load_balancer.ingress.is_empty();
        // The annotation needs no IngressClass object: only a hint.
        let by_annotation = ing.spec.ingress_class_name.is_none() && ing.class_name().is_some();
        let mut ev = vec![evidence::field(snap, *id, &path, why.clone())];
        ev.push(evidence::field(
            snap,
            *id,
            &["status"],
            if served {
                "status.loadBalancer lists an address: some controller serves it anyway".to_string()
            } else {
                "status.loadBalancer is empty: no controller has published an address for it"
                    .to_string()
            },
        ));
        for (cid, c) in classes.iter().take(3) {
            ev.push(evidence::object(
                snap,
                *cid,
                format!(
                    "IngressClass {} (controller {}){}",
                    c.metadata.name,
                    c.spec.controller.as_deref().unwrap_or("?"),
                    if c.is_default() { ", default" } else { "" }
                ),
            ));
        }
        if classes.is_empty() {
            ev.push(Evidence {
                object: Some(ObjectRef {
                    api_version: "networking.k8s.io/v1".into(),
                    kind: "IngressClass".into(),
                    namespace: None,
                    name: String::new(),
                }),
                input: None,
                file: None,
                line: None,
                note: "no IngressClass in the bundle".into(),
            });
        }
        out.push(Finding::new(
            &INGRESS_CLASS_MISSING,
            if served || by_annotation {
                Severity::Info
            } else {
                Severity::Warning
            },
            snap.object(*id).reference(),
            &cause,
            format!("may be served by no controller: {why}"),
            ev,
            "set spec.ingressClassName to the class of an installed controller (kubectl get ingressclass), or mark one class as the default".into(),
            Vec::new(),
        ));
    }
    out
}
