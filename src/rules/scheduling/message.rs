//! The kube-scheduler's FailedScheduling text (`FitError.Error()`, reference §2.2–2.4),
//! parsed into per-reason node counts.
//!
//! ```text
//! 0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.   (current)
//! 0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had untolerated taint {k: }. preemption: 0/5 nodes are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.
//! 0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: …   (PreFilter: no counts)
//! 0/3 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 2 Insufficient cpu.   (≤ 1.25)
//! ```
//!
//! After the histogram's `". "` comes the PostFilter sentence: the messages of the
//! PostFilter plugins that rejected the pod, joined by `", "` — DRA's `no new claims to
//! deallocate` (1.32+) before DefaultPreemption's `preemption: …`. Those are not reasons:
//! they are kept as [`FitMessage::notes`] and the `preemption:` part.
//!
//! Histogram entries are `"<count> <reason>"` sorted as strings, so `"10 …"` precedes
//! `"2 …"`; one node may add several reasons, so counts can sum to more than N. Events
//! are truncated to 1024 bytes with a `" ..."` suffix: the last entry may be cut.

/// One reason the scheduler gave, with the number of nodes it excluded (`None` for a
/// PreFilter rejection, which applies to every node).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    pub count: Option<u32>,
    pub text: String,
    pub kind: ReasonKind,
}

/// What a reason string means (reference §2.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReasonKind {
    /// `Insufficient <resource>`.
    Insufficient(String),
    TooManyPods,
    /// `node(s) didn't match Pod's node affinity/selector` and older wordings.
    NodeAffinity,
    /// `node(s) had untolerated taint {key: value}` (or the ≤1.25 wording).
    Taint {
        key: String,
        value: String,
    },
    /// `node(s) had untolerated taint(s)`: the current TaintToleration wording, which
    /// names no taint (and the ≤1.18 `node(s) had taints that the pod didn't tolerate`).
    UntoleratedTaints,
    /// `node(s) were unschedulable` (cordoned).
    Cordoned,
    UnknownConditions,
    NodeName,
    NodePorts,
    /// The pod's own required pod affinity.
    PodAffinity,
    /// The pod's own required anti-affinity.
    PodAntiAffinity,
    /// Anti-affinity of pods already on the node.
    ExistingAntiAffinity,
    TopologySpread,
    /// VolumeBinding filter failures (no PV to bind, not enough storage, missing PV).
    VolumeBinding,
    VolumeNodeAffinity,
    /// PreFilter: `pod has unbound immediate PersistentVolumeClaims`.
    UnboundImmediateClaims,
    /// PreFilter: `persistentvolumeclaim "<name>" not found`.
    ClaimNotFound(String),
    /// `node(s) didn't satisfy plugin(s) [A B]`: nodes a PreFilter narrowed away.
    Plugins(Vec<String>),
    VolumeLimits,
    /// Preemption sentence: the node failed for a reason eviction cannot fix.
    PreemptionNotHelpful,
    /// Preemption sentence: no lower-priority pod to evict on the node.
    NoPreemptionVictims,
    Other,
}

/// A parsed FailedScheduling message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FitMessage {
    /// N in `0/N nodes are available`.
    pub nodes: u32,
    /// Histogram entries, or the one PreFilter reason (count `None`).
    pub reasons: Vec<Reason>,
    /// The `preemption:` sentence, when present.
    pub preemption: Option<Preemption>,
    /// Other PostFilter plugins' messages before it (`no new claims to deallocate`).
    pub notes: Vec<String>,
    /// The event text was cut at the API's length limit (`" ..."`).
    pub truncated: bool,
}

/// The PostFilter (`preemption: …`) sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preemption {
    /// Its own per-node reasons, when it is a nested `0/N nodes are available` text.
    pub nodes: Option<u32>,
    pub reasons: Vec<Reason>,
    /// The sentence as written, without `preemption: `.
    pub text: String,
}

impl FitMessage {
    /// Parses a FailedScheduling message or PodScheduled condition message; `None` when
    /// the text is not a fit error (e.g. `skip schedule deleting pod: …`).
    pub fn parse(text: &str) -> Option<FitMessage> {
        let mut s = text.trim();
        let mut truncated = false;
        if let Some(t) = s.strip_suffix(" ...").or_else(|| s.strip_suffix("...")) {
            truncated = true;
            s = t.trim_end();
        }
        let (main, post) = match s.find(" preemption: ") {
            Some(i) => (&s[..i], Some(&s[i + " preemption: ".len()..])),
            None => (s, None),
        };
        let (nodes, body) = header(main)?;
        // The histogram ends at its sentence's `". "`; what follows are PostFilter
        // messages (reason texts hold no `". "`: taint values and names have no spaces).
        let (body, notes) = match body.find(". ") {
            Some(i) => (&body[..i], &body[i + 2..]),
            None => (body, ""),
        };
        let notes: Vec<String> = notes
            .split(", ")
            .map(|n| n.trim().trim_end_matches([',', '.']).trim().to_string())
            .filter(|n| !n.is_empty())
            .collect();
        let reasons = reasons(body);
        let preemption = post.map(|p| {
            let p = p.trim();
            match header(p) {
                Some((n, b)) => Preemption {
                    nodes: Some(n),
                    reasons: reasons_of(b),
                    text: p.trim_end_matches('.').to_string(),
                },
                None => Preemption {
                    nodes: None,
                    reasons: Vec::new(),
                    text: p.trim_end_matches('.').to_string(),
                },
            }
        });
        Some(FitMessage {
            nodes,
            reasons,
            preemption,
            notes,
            truncated,
        })
    }

    /// True when a PreFilter plugin rejected the pod (no per-node counts).
    pub fn is_prefilter(&self) -> bool {
        self.reasons.len() == 1 && self.reasons[0].count.is_none()
    }

    /// Nodes the message says a reason of this kind excluded (PreFilter: all of them).
    /// Saturates: the counts are the message's own numbers, which may be huge.
    pub fn count_of(&self, pred: impl Fn(&ReasonKind) -> bool) -> u32 {
        self.reasons
            .iter()
            .filter(|r| pred(&r.kind))
            .map(|r| r.count.unwrap_or(self.nodes))
            .fold(0, u32::saturating_add)
    }

    /// The resources named by `Insufficient …` entries.
    pub fn insufficient(&self) -> Vec<&str> {
        self.reasons
            .iter()
            .filter_map(|r| match &r.kind {
                ReasonKind::Insufficient(res) => Some(res.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The preemption sentence says eviction cannot help on any node.
    pub fn preemption_hopeless(&self) -> Option<bool> {
        let p = self.preemption.as_ref()?;
        if p.reasons.is_empty() {
            return None;
        }
        Some(p.reasons.iter().all(|r| {
            matches!(
                r.kind,
                ReasonKind::PreemptionNotHelpful | ReasonKind::NoPreemptionVictims
            )
        }))
    }
}

/// `0/N nodes are available[:] rest` → (N, rest).
fn header(s: &str) -> Option<(u32, &str)> {
    let (avail, rest) = s.split_once('/')?;
    avail.trim().parse::<u32>().ok()?;
    let (n, rest) = rest.split_once(' ')?;
    let n = n.parse::<u32>().ok()?;
    let rest = rest.strip_prefix("nodes are available")?;
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    Some((n, rest.trim()))
}

/// The main body: a histogram, or one PreFilter reason without a count.
fn reasons(body: &str) -> Vec<Reason> {
    let body = body.trim().trim_end_matches('.').trim();
    if body.is_empty() {
        return Vec::new();
    }
    if starts_with_count(body) {
        reasons_of(body)
    } else {
        vec![Reason {
            count: None,
            kind: classify(body),
            text: body.to_string(),
        }]
    }
}

/// `"<n> reason, <n> reason"` → entries; splits only at `", "` followed by a count, so
/// reasons that contain commas (`… {k: v}, that the pod didn't tolerate`) stay whole.
fn reasons_of(body: &str) -> Vec<Reason> {
    let body = body.trim().trim_end_matches('.').trim();
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = body.as_bytes();
    let mut i = 0;
    while i + 2 <= bytes.len() {
        // Compare bytes: `i` may sit inside a multi-byte character.
        if bytes[i] == b',' && bytes[i + 1] == b' ' && starts_with_count(&body[i + 2..]) {
            push_entry(&mut out, &body[start..i]);
            start = i + 2;
            i += 2;
            continue;
        }
        i += 1;
    }
    push_entry(&mut out, &body[start..]);
    out
}

fn push_entry(out: &mut Vec<Reason>, entry: &str) {
    let entry = entry.trim();
    if entry.is_empty() {
        return;
    }
    match entry.split_once(' ') {
        Some((n, text)) if n.parse::<u32>().is_ok() => out.push(Reason {
            count: n.parse().ok(),
            kind: classify(text),
            text: text.to_string(),
        }),
        _ => out.push(Reason {
            count: None,
            kind: classify(entry),
            text: entry.to_string(),
        }),
    }
}

/// `"<digits> <letter or punctuation>"`.
fn starts_with_count(s: &str) -> bool {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && s.as_bytes().get(digits) == Some(&b' ')
}

/// Maps a reason string to its meaning.
pub fn classify(text: &str) -> ReasonKind {
    let t = text.trim();
    if let Some(res) = t.strip_prefix("Insufficient ") {
        return ReasonKind::Insufficient(res.trim().to_string());
    }
    if t == "Too many pods" {
        return ReasonKind::TooManyPods;
    }
    if t == "node(s) had untolerated taint(s)"
        || t == "node(s) had taints that the pod didn't tolerate"
    {
        return ReasonKind::UntoleratedTaints;
    }
    if let Some(inner) = t
        .strip_prefix("node(s) had untolerated taint {")
        .or_else(|| t.strip_prefix("node(s) had taint {"))
        .or_else(|| t.strip_prefix("node(s) had taints {"))
    {
        let inner = inner.split('}').next().unwrap_or(inner);
        let (key, value) = inner.split_once(':').unwrap_or((inner, ""));
        return ReasonKind::Taint {
            key: key.trim().to_string(),
            value: value.trim().to_string(),
        };
    }
    if let Some(rest) = t.strip_prefix("persistentvolumeclaim \"")
        && let Some((name, tail)) = rest.split_once('"')
        && tail.contains("not found")
    {
        return ReasonKind::ClaimNotFound(name.to_string());
    }
    let has = |s: &str| t.contains(s);
    if has("didn't match Pod's node affinity")
        || has("didn't match node selector")
        || has("didn't match scheduler-enforced node affinity")
    {
        ReasonKind::NodeAffinity
    } else if has("were unschedulable") {
        ReasonKind::Cordoned
    } else if has("had unknown conditions") {
        ReasonKind::UnknownConditions
    } else if has("didn't match the requested node name") {
        ReasonKind::NodeName
    } else if has("didn't have free ports") {
        ReasonKind::NodePorts
    } else if has("didn't satisfy existing pods anti-affinity") {
        ReasonKind::ExistingAntiAffinity
    } else if has("didn't match pod anti-affinity") {
        ReasonKind::PodAntiAffinity
    } else if has("didn't match pod affinity") || has("pod affinity terms conflict") {
        ReasonKind::PodAffinity
    } else if has("topology spread constraints") {
        ReasonKind::TopologySpread
    } else if has("volume node affinity conflict") {
        ReasonKind::VolumeNodeAffinity
    } else if has("unbound immediate PersistentVolumeClaims") {
        ReasonKind::UnboundImmediateClaims
    } else if has("didn't find available persistent volumes")
        || has("did not have enough free storage")
        || has("bound to non-existent pv")
    {
        ReasonKind::VolumeBinding
    } else if has("didn't satisfy plugin") {
        let list = t
            .split_once('[')
            .and_then(|(_, r)| r.split_once(']'))
            .map(|(l, _)| {
                l.split([' ', ','])
                    .filter(|p| !p.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        ReasonKind::Plugins(list)
    } else if has("max volume count") {
        ReasonKind::VolumeLimits
    } else if has("Preemption is not helpful") {
        ReasonKind::PreemptionNotHelpful
    } else if has("No preemption victims found") {
        ReasonKind::NoPreemptionVictims
    } else {
        ReasonKind::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(m: &FitMessage) -> Vec<(Option<u32>, ReasonKind)> {
        m.reasons
            .iter()
            .map(|r| (r.count, r.kind.clone()))
            .collect()
    }

    #[test]
    fn histogram_with_preemption() {
        let m = FitMessage::parse("0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.").unwrap();
        assert_eq!(m.nodes, 3);
        assert_eq!(
            kinds(&m),
            [(Some(3), ReasonKind::Insufficient("cpu".into()))]
        );
        let p = m.preemption.as_ref().unwrap();
        assert_eq!(p.nodes, Some(3));
        assert_eq!(p.reasons[0].kind, ReasonKind::NoPreemptionVictims);
        assert_eq!(m.preemption_hopeless(), Some(true));
        assert!(!m.truncated && !m.is_prefilter());
        assert_eq!(m.insufficient(), ["cpu"]);
    }

    #[test]
    fn current_wording_with_dra_note() {
        // kube-scheduler 1.32+: TaintToleration names no taint, and DRA's PostFilter
        // message comes before DefaultPreemption's, joined by ", ".
        let m = FitMessage::parse("0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.").unwrap();
        assert_eq!(
            kinds(&m),
            [
                (Some(1), ReasonKind::UntoleratedTaints),
                (Some(2), ReasonKind::Insufficient("cpu".into())),
            ]
        );
        assert_eq!(m.notes, ["no new claims to deallocate"]);
        let p = m.preemption.as_ref().unwrap();
        assert_eq!((p.nodes, p.reasons.len()), (Some(3), 2));
        assert_eq!(m.preemption_hopeless(), Some(true));
        // The note with the older, keyed taint wording (1.31/1.32).
        let m = FitMessage::parse("0/2 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) had untolerated taint {spray: mortein}. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.").unwrap();
        assert_eq!(m.reasons.len(), 2);
        assert!(
            matches!(&m.reasons[1].kind, ReasonKind::Taint { key, value } if key == "spray" && value == "mortein")
        );
        assert_eq!(m.notes, ["no new claims to deallocate"]);
        // A PreFilter reason with the note, and the note without preemption.
        let m = FitMessage::parse("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.").unwrap();
        assert_eq!(kinds(&m), [(Some(3), ReasonKind::NodeAffinity)]);
        let m = FitMessage::parse(
            "0/1 nodes are available: 1 Insufficient memory. no new claims to deallocate.",
        )
        .unwrap();
        assert_eq!(
            kinds(&m),
            [(Some(1), ReasonKind::Insufficient("memory".into()))]
        );
        assert_eq!(m.notes, ["no new claims to deallocate"]);
        assert!(m.preemption.is_none());
        assert_eq!(
            classify("node(s) had taints that the pod didn't tolerate"),
            ReasonKind::UntoleratedTaints
        );
    }

    #[test]
    fn counts_sorted_as_strings_and_several_reasons() {
        let m = FitMessage::parse("0/12 nodes are available: 10 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu, 2 Insufficient memory. preemption: 0/12 nodes are available: 10 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.").unwrap();
        assert_eq!(
            kinds(&m),
            [
                (
                    Some(10),
                    ReasonKind::Taint {
                        key: "dedicated".into(),
                        value: "gpu".into()
                    }
                ),
                (Some(2), ReasonKind::Insufficient("cpu".into())),
                (Some(2), ReasonKind::Insufficient("memory".into())),
            ]
        );
        assert_eq!(m.count_of(|k| matches!(k, ReasonKind::Taint { .. })), 10);
        assert_eq!(m.preemption.unwrap().reasons.len(), 2);
    }

    #[test]
    fn empty_taint_value_and_node_affinity() {
        let m = FitMessage::parse("0/5 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 4 node(s) didn't match Pod's node affinity/selector. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.").unwrap();
        assert_eq!(
            kinds(&m),
            [
                (
                    Some(1),
                    ReasonKind::Taint {
                        key: "node-role.kubernetes.io/control-plane".into(),
                        value: String::new()
                    }
                ),
                (Some(4), ReasonKind::NodeAffinity),
            ]
        );
        assert_eq!(
            m.preemption.unwrap().reasons[0].kind,
            ReasonKind::PreemptionNotHelpful
        );
    }

    #[test]
    fn prefilter_has_no_counts() {
        let m = FitMessage::parse("0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.").unwrap();
        assert!(m.is_prefilter());
        assert_eq!(kinds(&m), [(None, ReasonKind::UnboundImmediateClaims)]);
        assert_eq!(m.count_of(|k| *k == ReasonKind::UnboundImmediateClaims), 3);
        let m = FitMessage::parse("0/2 nodes are available: persistentvolumeclaim \"data-db-0\" not found. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.").unwrap();
        assert_eq!(
            kinds(&m),
            [(None, ReasonKind::ClaimNotFound("data-db-0".into()))]
        );
    }

    #[test]
    fn didnt_satisfy_plugins() {
        let m = FitMessage::parse("0/2 nodes are available: 1 Too many pods, 1 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.").unwrap();
        assert_eq!(
            kinds(&m),
            [
                (Some(1), ReasonKind::TooManyPods),
                (Some(1), ReasonKind::Plugins(vec!["NodeAffinity".into()])),
            ]
        );
        let m = FitMessage::parse(
            "0/4 nodes are available: node(s) didn't satisfy plugin(s) [NodeAffinity VolumeBinding] simultaneously.",
        )
        .unwrap();
        assert_eq!(
            kinds(&m),
            [(
                None,
                ReasonKind::Plugins(vec!["NodeAffinity".into(), "VolumeBinding".into()])
            )]
        );
        assert!(m.preemption.is_none());
    }

    #[test]
    fn old_taint_wording_keeps_its_comma() {
        let m = FitMessage::parse("0/3 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 2 Insufficient cpu.").unwrap();
        assert_eq!(
            kinds(&m),
            [
                (
                    Some(1),
                    ReasonKind::Taint {
                        key: "node-role.kubernetes.io/master".into(),
                        value: String::new()
                    }
                ),
                (Some(2), ReasonKind::Insufficient("cpu".into())),
            ]
        );
        assert_eq!(
            m.reasons[0].text,
            "node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate"
        );
        // Very old wordings.
        assert_eq!(
            classify("node(s) didn't match node selector"),
            ReasonKind::NodeAffinity
        );
        assert_eq!(
            classify("node(s) didn't match pod affinity/anti-affinity"),
            ReasonKind::PodAffinity
        );
    }

    #[test]
    fn truncated_event_text() {
        let m = FitMessage::parse("0/40 nodes are available: 1 Insufficient memory, 12 node(s) didn't match pod anti-affinity rules, 27 node(s) had untolerated taint {pool: batc ...").unwrap();
        assert!(m.truncated);
        assert_eq!(m.reasons.len(), 3);
        assert_eq!(m.reasons[1].kind, ReasonKind::PodAntiAffinity);
        // The cut entry still parses as a taint, with what survived.
        assert!(matches!(&m.reasons[2].kind, ReasonKind::Taint { key, .. } if key == "pool"));
        assert!(m.preemption.is_none());
    }

    #[test]
    fn every_reason_string() {
        let cases = [
            (
                "Insufficient nvidia.com/gpu",
                ReasonKind::Insufficient("nvidia.com/gpu".into()),
            ),
            (
                "node(s) didn't match scheduler-enforced node affinity",
                ReasonKind::NodeAffinity,
            ),
            ("node(s) were unschedulable", ReasonKind::Cordoned),
            (
                "node(s) had unknown conditions",
                ReasonKind::UnknownConditions,
            ),
            (
                "node(s) didn't match the requested node name",
                ReasonKind::NodeName,
            ),
            (
                "node(s) didn't have free ports for the requested pod ports",
                ReasonKind::NodePorts,
            ),
            (
                "node(s) didn't satisfy existing pods anti-affinity rules",
                ReasonKind::ExistingAntiAffinity,
            ),
            (
                "node(s) didn't match pod affinity rules",
                ReasonKind::PodAffinity,
            ),
            (
                "node(s) didn't match pod anti-affinity rules",
                ReasonKind::PodAntiAffinity,
            ),
            ("pod affinity terms conflict", ReasonKind::PodAffinity),
            (
                "node(s) didn't match pod topology spread constraints",
                ReasonKind::TopologySpread,
            ),
            (
                "node(s) didn't match pod topology spread constraints (missing required label)",
                ReasonKind::TopologySpread,
            ),
            (
                "node(s) didn't find available persistent volumes to bind",
                ReasonKind::VolumeBinding,
            ),
            (
                "node(s) had volume node affinity conflict",
                ReasonKind::VolumeNodeAffinity,
            ),
            (
                "node(s) did not have enough free storage",
                ReasonKind::VolumeBinding,
            ),
            (
                "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)",
                ReasonKind::VolumeBinding,
            ),
            ("node(s) exceed max volume count", ReasonKind::VolumeLimits),
            (
                "Pod has a restartable init container and the SidecarContainers feature is disabled",
                ReasonKind::Other,
            ),
        ];
        for (text, want) in cases {
            assert_eq!(classify(text), want, "{text}");
        }
    }

    #[test]
    fn non_ascii_text_does_not_panic() {
        let m = FitMessage::parse("0/2 nodes are available: 1 node(s) had untolerated taint {zone: zürich}, 1 Insufficient cpu ...").unwrap();
        assert_eq!(m.reasons.len(), 2);
        assert_eq!(
            m.reasons[0].kind,
            ReasonKind::Taint {
                key: "zone".into(),
                value: "zürich".into()
            }
        );
        assert!(m.truncated);
        assert!(FitMessage::parse("0/1 nodes are available: é, ü, 3 ö").is_some());
    }

    #[test]
    fn count_of_saturates_instead_of_overflowing() {
        // Fuzz crash: counts summing past u32::MAX wrapped (release) or panicked (debug).
        let crash = include_str!("../../../fuzz/regressions/scheduler_message-count-overflow.txt");
        let m = FitMessage::parse(crash).unwrap();
        let counts: Vec<_> = m.reasons.iter().map(|r| r.count).collect();
        assert_eq!(counts, [Some(2), Some(4053651056), Some(4053651056)]);
        assert_eq!(m.count_of(|_| true), u32::MAX);
        let m = FitMessage::parse(
            "0/3 nodes are available: 4294967295 Insufficient cpu, 1 Insufficient cpu, 2 Too many pods.",
        )
        .unwrap();
        assert_eq!(
            m.count_of(|k| matches!(k, ReasonKind::Insufficient(_))),
            u32::MAX
        );
        assert_eq!(m.count_of(|k| *k == ReasonKind::TooManyPods), 2);
    }

    #[test]
    fn not_fit_errors() {
        assert!(FitMessage::parse("skip schedule deleting pod: default/x").is_none());
        assert!(FitMessage::parse("").is_none());
        assert!(FitMessage::parse("0/x nodes are available: 1 Insufficient cpu.").is_none());
        // A preemption sentence that is not a nested fit error is kept as text.
        let m = FitMessage::parse("0/3 nodes are available: 3 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.").unwrap();
        let p = m.preemption.unwrap();
        assert_eq!(p.text, "not eligible due to preemptionPolicy=Never");
        assert!(p.reasons.is_empty());
        // No colon, zero nodes.
        let m = FitMessage::parse("0/0 nodes are available").unwrap();
        assert_eq!((m.nodes, m.reasons.len()), (0, 0));
    }
}
