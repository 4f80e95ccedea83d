//! Views read in ingest's header pass, for the kinds with the most text.
//!
//! Ingest reads every line of an object once (its header, and a check of the rest), and
//! a view used to read most of the same lines again. For the kinds below, whose views
//! are `metadata`, `spec` and `status`, the header pass reads those three values as the
//! view's types instead (what the view leaves out is still checked line by line), and
//! the store hands the view over when the rules first ask for it. Events, the most
//! numerous objects, are read the same way from their top-level entries
//! ([`EventEntries`]).
//!
//! The result must be the view the later read would give, or nothing: a part that does
//! not read as the view's type is read again from the same place as before (the YAML
//! fast path goes back to where the value starts; a JSON item is read again without early
//! views), and that object's view is read later, as if this module did not exist.
//! `early_views_match_views_read_later` (tests/corpus.rs) holds every early view of a
//! generated bundle, the samples and the corpus to the later read; the yaml_loader fuzz
//! target does the same on random input.

use crate::kube::event::{EventDoc, EventEntries};
use crate::kube::meta::ObjectMeta;
use crate::kube::{pod, workload};
use crate::parse::attempt::Attempt;
use serde::de::{DeserializeOwned, IgnoredAny, MapAccess};
use std::any::Any;
use std::cell::Cell;
use std::fmt;

/// A view read at ingest, until the store hands it to the view that asks for its type.
pub struct Early {
    /// The kind it was read as: the object's, or the one its path says (the object
    /// keeps it only if that is the kind it ends up with).
    pub kind: &'static str,
    pub view: Box<dyn Any + Send + Sync>,
}

impl fmt::Debug for Early {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Early(..)")
    }
}

thread_local! {
    /// Early views are on, and the kind of objects that do not say theirs (see
    /// [`with_early_views`]).
    static ON: Cell<Option<Option<&'static str>>> = const { Cell::new(None) };
}

/// Runs `f` with early views read by the headers it deserializes; `hint` is the kind of
/// the objects that do not say theirs, as the file's path says (a must-gather's List
/// items have no `kind`, and the List's own comes after them). Only for readers that
/// can read a part again when it fails (see [`Attempt`](crate::parse::attempt::Attempt)): the YAML fast path, or a JSON
/// item that is read again without early views when it fails.
pub fn with_early_views<R>(hint: Option<&'static str>, f: impl FnOnce() -> R) -> R {
    let before = ON.replace(Some(hint));
    let out = f();
    ON.set(before);
    out
}

/// Runs `f` without early views (a JSON item read again).
pub fn without_early_views<R>(f: impl FnOnce() -> R) -> R {
    let before = ON.replace(None);
    let out = f();
    ON.set(before);
    out
}

/// The parts of a view read so far.
enum Parts {
    /// Early views are off, the kind has none, or a part did not read as its type.
    Off,
    /// On, and the kind is not known yet: `hint` is the kind the path says.
    Waiting { hint: Option<&'static str> },
    Reading {
        view: View,
        /// `metadata`, `spec`, `status` read (twice is an error for the view).
        seen: [bool; 3],
        /// The kind came from the hint: the object's own `kind` may still follow.
        hinted: bool,
    },
    /// An Event, whose view is read from its top-level entries (it has no `spec` or
    /// `status`); `hinted` as above.
    Event {
        entries: Box<EventEntries>,
        hinted: bool,
    },
}

impl Parts {
    /// The parts of a view of `kind`, none read yet.
    fn start(kind: &str, hinted: bool) -> Parts {
        if kind == "Event" {
            return Parts::Event {
                entries: Box::default(),
                hinted,
            };
        }
        match View::start(kind) {
            Some(view) => Parts::Reading {
                view,
                seen: [false; 3],
                hinted,
            },
            None => Parts::Off,
        }
    }

    /// The kind a hinted view was started as.
    fn hinted_kind(&self) -> Option<&'static str> {
        match self {
            Parts::Reading {
                view, hinted: true, ..
            } => Some(view.kind()),
            Parts::Event { hinted: true, .. } => Some("Event"),
            _ => None,
        }
    }

    /// The view that was hinted, now that the object's own `kind` says the same.
    fn confirmed(self) -> Parts {
        match self {
            Parts::Reading { view, seen, .. } => Parts::Reading {
                view,
                seen,
                hinted: false,
            },
            Parts::Event { entries, .. } => Parts::Event {
                entries,
                hinted: false,
            },
            other => other,
        }
    }

    /// Starts the view the path hints at, when waiting for the kind.
    fn start_hinted(&mut self) {
        if let Parts::Waiting { hint } = *self {
            *self = match hint {
                Some(kind) => Parts::start(kind, true),
                None => Parts::Off,
            };
        }
    }
}

/// What a header reads into a view: one per object it reads.
pub struct Reader(Parts);

impl Default for Reader {
    /// Waiting for the kind when early views are on (see [`with_early_views`]).
    fn default() -> Reader {
        Reader(match ON.get() {
            Some(hint) => Parts::Waiting { hint },
            None => Parts::Off,
        })
    }
}

impl Reader {
    /// The object's `kind`: the view to read its parts into.
    pub fn kind(&mut self, kind: Option<&str>) {
        let parts = std::mem::replace(&mut self.0, Parts::Off);
        self.0 = match (parts, kind) {
            (Parts::Waiting { .. }, Some(kind)) => Parts::start(kind, false),
            // The hint was right.
            (parts, Some(kind)) if parts.hinted_kind() == Some(kind) => parts.confirmed(),
            _ => Parts::Off,
        };
    }

    /// The Event being read, and the place of `key` among its fields, to read a
    /// top-level entry into when it is one (see [`EventEntries::field`]). Such an entry
    /// before the kind is known, and with no kind from the path, leaves no view: the
    /// entry is not kept.
    pub fn event(&mut self, key: &str) -> Option<(&mut EventEntries, usize)> {
        if !matches!(self.0, Parts::Waiting { .. } | Parts::Event { .. }) {
            return None;
        }
        let field = EventEntries::field(key)?;
        // Waiting: without a kind from the path the entry is not kept, so no view.
        self.0.start_hinted();
        match &mut self.0 {
            Parts::Event { entries, .. } => Some((entries, field)),
            _ => None,
        }
    }

    /// A top-level key that is not text (a number, say): a view's field by its place
    /// to serde's derived readers, so it leaves no view.
    pub fn odd_key(&mut self) {
        self.0 = Parts::Off;
    }

    /// Whether `metadata` is to be read as a view's (then by [`Self::metadata`]).
    pub fn wants_metadata(&mut self) -> bool {
        self.part(0).is_some()
    }

    pub fn metadata(&mut self, meta: Option<ObjectMeta>) {
        match (&mut self.0, meta) {
            (Parts::Reading { view, .. }, Some(meta)) => view.set_metadata(meta),
            _ => self.0 = Parts::Off,
        }
    }

    /// Reads `spec` into the view, or skips it as a header does.
    pub fn spec<'de, A: MapAccess<'de>>(&mut self, map: &mut A) -> Result<(), A::Error> {
        self.read(1, map, |view, map| view.read_spec(map))
    }

    /// Reads `status` into the view, or skips it as a header does.
    pub fn status<'de, A: MapAccess<'de>>(&mut self, map: &mut A) -> Result<(), A::Error> {
        self.read(2, map, |view, map| view.read_status(map))
    }

    /// The view, when every part read as its type.
    pub fn finish(self) -> Option<Early> {
        match self.0 {
            Parts::Reading { view, .. } => Some(view.into_early()),
            Parts::Event { entries, .. } => Some(Early {
                kind: "Event",
                view: Box::new(entries.finish()?),
            }),
            _ => None,
        }
    }

    /// Reads part `i` with `read` when it is to be read into the view (see
    /// [`Self::part`]), else skips it; a part that does not read leaves no view.
    fn read<'de, A: MapAccess<'de>>(
        &mut self,
        i: usize,
        map: &mut A,
        read: impl FnOnce(&mut View, &mut A) -> Result<bool, A::Error>,
    ) -> Result<(), A::Error> {
        let Some(view) = self.part(i) else {
            return map.next_value::<IgnoredAny>().map(drop);
        };
        if !read(view, map)? {
            self.0 = Parts::Off;
        }
        Ok(())
    }

    /// The view to read part `i` into: the first time the part is seen, and before the
    /// kind only when the path gave one. Anything else leaves no view.
    fn part(&mut self, i: usize) -> Option<&mut View> {
        self.0.start_hinted();
        if matches!(self.0, Parts::Event { .. }) {
            // Not a field of an Event: skipped, as its view skips it.
            return None;
        }
        if !matches!(&self.0, Parts::Reading { seen, .. } if !seen[i]) {
            self.0 = Parts::Off;
            return None;
        }
        match &mut self.0 {
            Parts::Reading { view, seen, .. } => {
                seen[i] = true;
                Some(view)
            }
            _ => None,
        }
    }
}

/// Reads a part as `T`, or skips it when it is not one (`None`).
fn read_part<'de, T: DeserializeOwned, A: MapAccess<'de>>(
    map: &mut A,
) -> Result<Option<T>, A::Error> {
    Ok(match map.next_value::<Attempt<T, IgnoredAny>>()? {
        Attempt::First(t) => Some(t),
        Attempt::Second(_) => None,
    })
}

/// The kinds read early: views of `metadata`, `spec` and `status` alone.
macro_rules! early_kinds {
    ($($kind:ident => $view:ty),* $(,)?) => {
        enum View {
            $($kind(Box<$view>),)*
        }

        impl View {
            fn start(kind: &str) -> Option<View> {
                match kind {
                    $(stringify!($kind) => Some(View::$kind(Box::default())),)*
                    _ => None,
                }
            }

            fn set_metadata(&mut self, meta: ObjectMeta) {
                match self {
                    $(View::$kind(v) => v.metadata = meta,)*
                }
            }

            fn read_spec<'de, A: MapAccess<'de>>(&mut self, map: &mut A) -> Result<bool, A::Error> {
                Ok(match self {
                    $(View::$kind(v) => read_part(map)?.map(|s| v.spec = s).is_some(),)*
                })
            }

            fn read_status<'de, A: MapAccess<'de>>(&mut self, map: &mut A) -> Result<bool, A::Error> {
                Ok(match self {
                    $(View::$kind(v) => read_part(map)?.map(|s| v.status = s).is_some(),)*
                })
            }

            fn kind(&self) -> &'static str {
                match self {
                    $(View::$kind(_) => stringify!($kind),)*
                }
            }

            fn into_early(self) -> Early {
                let kind = self.kind();
                match self {
                    $(View::$kind(v) => Early { kind, view: v },)*
                }
            }
        }

        impl Early {
            /// The view as `Debug` text, and the same of the view read later from `body`
            /// (`Ok(..)` or the error): for the tests and the fuzz target that hold the two
            /// equal.
            #[doc(hidden)]
            pub fn and_later(&self, body: &crate::ingest::body::Body) -> (String, String) {
                match self.kind {
                    $(stringify!($kind) => (
                        format!("Ok({:?})", self.view.downcast_ref::<$view>()),
                        format!("{:?}", body.deserialize::<$view>().map(Some)),
                    ),)*
                    "Event" => (
                        format!("Ok({:?})", self.view.downcast_ref::<EventDoc>()),
                        format!("{:?}", body.deserialize::<EventDoc>().map(Some)),
                    ),
                    other => (format!("an early view of a {other}"), String::new()),
                }
            }
        }
    };
}

early_kinds! {
    Pod => pod::Pod,
    ReplicaSet => workload::ReplicaSet,
    Deployment => workload::Deployment,
    StatefulSet => workload::StatefulSet,
    DaemonSet => workload::DaemonSet,
    Job => workload::Job,
}

#[cfg(test)]
mod tests {
    use crate::ingest::content::{FileRead, read};
    use crate::ingest::objects::RawObject;
    use crate::kube::event::{Event, EventDoc};
    use crate::kube::pod::Pod;

    fn objects(path: &str, text: &str) -> Vec<RawObject> {
        match read(path, text.as_bytes().to_vec(), true) {
            FileRead::Parsed {
                extracted, error, ..
            } => {
                assert!(error.is_none(), "{error:?}");
                extracted.objects
            }
            _ => panic!("not parsed"),
        }
    }

    /// The view read early, which must be a `T`.
    fn early_view<T: 'static>(o: &RawObject) -> Option<&T> {
        o.early
            .as_ref()
            .map(|e| e.view.downcast_ref::<T>().expect("a view of that type"))
    }

    fn early_pod(o: &RawObject) -> Option<&Pod> {
        early_view(o)
    }

    const LIST: &str = "\
apiVersion: v1
items:
- metadata:
    annotations:
      a: b
    managedFields:
    - manager: kubelet
      fieldsV1:
        f:status: {}
    name: good
    namespace: ns
    resourceVersion: \"7\"
  spec:
    nodeName: n1
    containers:
    - name: c
      env:
      - name: X
        value: \"1\"
- metadata:
    name: bad-spec
    namespace: ns
  spec:
    containers: not-a-list
  status:
    phase: Pending
- metadata:
    name: bad-meta
    namespace: ns
    resourceVersion:
      odd: 12
  spec:
    nodeName: n2
kind: PodList
";

    /// A part that is not the view's type leaves that object's view to later (which
    /// fails or reads as before) and reads its header as before; the others are read.
    #[test]
    fn a_part_of_another_shape_leaves_the_view_to_later() {
        let objs = objects("ns/core/pods.yaml", LIST);
        let names: Vec<_> = objs.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["good", "bad-spec", "bad-meta"]);
        let good = early_pod(&objs[0]).expect("read early");
        assert_eq!(good.spec.node_name.as_deref(), Some("n1"));
        // Lazy fields keep their place in the kept text (after the managedFields block
        // that is left out of it).
        assert_eq!(good.metadata.annotation("a"), Some("b"));
        assert_eq!(
            format!("{:?}", good.spec.containers[0].env),
            r#"[Object {"name": String("X"), "value": String("1")}]"#
        );
        assert_eq!(objs[0].resource_version.as_deref(), Some("7"));
        assert!(objs[1].early.is_none());
        assert!(objs[1].body.deserialize::<Pod>().is_err());
        assert!(objs[2].early.is_none());
        assert_eq!(objs[2].namespace.as_deref(), Some("ns"));
        assert_eq!(objs[2].resource_version, None);
        assert!(objs[2].body.deserialize::<Pod>().is_err());
    }

    /// Items without a kind are read as the kind the path says; when the list says
    /// another, the view is dropped.
    #[test]
    fn the_path_gives_the_kind_only_when_the_list_agrees() {
        let objs = objects("ns/core/pods.yaml", LIST);
        assert_eq!(objs[0].kind, "Pod");
        assert!(objs[0].early.is_some());
        let other = LIST.replace("kind: PodList", "kind: ReplicaSetList");
        let objs = objects("ns/core/pods.yaml", &other);
        assert_eq!(objs[0].kind, "ReplicaSet");
        assert!(objs.iter().all(|o| o.early.is_none()));
        // No hint (a path that names no kind): items without a kind have no view.
        let objs = objects("ns/things.yaml", LIST);
        assert!(objs.iter().all(|o| o.early.is_none()));
    }

    /// The object's own kind after the parts must be the one the path said.
    #[test]
    fn a_kind_after_the_parts_must_match_the_hint() {
        let doc = "metadata:\n  name: p\nspec:\n  nodeName: n\nkind: Pod\n";
        assert!(objects("ns/pods/p.yaml", doc)[0].early.is_some());
        let doc = "metadata:\n  name: p\nspec:\n  nodeName: n\nkind: Job\n";
        let objs = objects("ns/pods/p.yaml", doc);
        assert_eq!(objs[0].kind, "Job");
        assert!(objs[0].early.is_none());
    }

    /// A JSON item whose part is not the view's type is read again without early views.
    #[test]
    fn a_json_item_of_another_shape_is_read_again() {
        let text = r#"{"kind": "PodList", "apiVersion": "v1", "items": [
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "namespace": "ns"}, "spec": {"nodeName": "n1"}},
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "b", "namespace": "ns"}, "spec": {"containers": 5}}
        ]}"#;
        let objs = objects("cluster-resources/pods/ns.json", text);
        assert_eq!(objs.len(), 2);
        assert_eq!(
            early_pod(&objs[0]).and_then(|p| p.spec.node_name.as_deref()),
            Some("n1")
        );
        assert_eq!(objs[1].name, "b");
        assert!(objs[1].early.is_none());
    }

    fn early_event(o: &RawObject) -> Option<&Event> {
        early_view::<EventDoc>(o).map(|d| d.0.as_ref().expect("a subject"))
    }

    const EVENTS: &str = "\
apiVersion: v1
items:
- count: 3
  firstTimestamp: \"2026-11-20T08:00:00Z\"
  involvedObject:
    kind: Pod
    name: p
    namespace: ns
  lastTimestamp: \"2026-11-20T09:00:00Z\"
  message: Back-off pulling image
  metadata:
    name: p.1
    namespace: ns
  reason: BackOff
  series:
    lastObservedTime: \"2026-11-20T10:00:00Z\"
  type: Warning
- involvedObject: not-a-subject
  lastTimestamp: \"2026-11-20T09:00:00Z\"
  metadata:
    name: p.2
    namespace: ns
- metadata:
    name: p.3
    namespace: ns
  reason: A
  reason: B
  regarding:
    kind: Pod
    name: p
kind: List
";

    /// Events are read from their top-level entries; an entry the whole read would not
    /// take (a subject that is not a mapping, a repeated field) leaves the view to later,
    /// and the time ingest reads is the same either way.
    #[test]
    fn events_are_read_from_their_entries() {
        let objs = objects("ns/core/events.yaml", EVENTS);
        let names: Vec<_> = objs.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["p.1", "p.2", "p.3"]);
        let e = early_event(&objs[0]).expect("read early");
        assert_eq!(
            (e.regarding.name.as_str(), e.reason.as_str(), e.count),
            ("p", "BackOff", 3)
        );
        assert_eq!(e.message, "Back-off pulling image");
        // The newest of its timestamps, series.lastObservedTime.
        assert_eq!(
            objs[0].time,
            crate::kube::time::parse_timestamp("2026-11-20T10:00:00Z")
        );
        assert!(objs[1].early.is_none());
        assert!(objs[1].body.deserialize::<EventDoc>().is_err());
        assert_eq!(objs[1].time, objs[0].time.map(|t| t - 3600));
        assert!(objs[2].early.is_none());
        assert!(objs[2].body.deserialize::<EventDoc>().is_err());
    }

    /// An Event's fields before its `kind`, with no kind from the path, are not kept: no
    /// view. With the kind first, or from the path, there is one.
    #[test]
    fn an_event_needs_its_kind_before_its_fields() {
        let doc = "involvedObject:\n  kind: Pod\n  name: p\nkind: Event\nmetadata:\n  name: e\nreason: R\n";
        let objs = objects("dump/things.yaml", doc);
        assert_eq!(objs[0].kind, "Event");
        assert!(objs[0].early.is_none());
        assert!(objects("ns/core/events.yaml", doc)[0].early.is_some());
        let first = "kind: Event\nmetadata:\n  name: e\ninvolvedObject:\n  kind: Pod\n  name: p\nreason: R\n";
        let objs = objects("dump/things.yaml", first);
        assert_eq!(early_event(&objs[0]).map(|e| e.reason.as_str()), Some("R"));
    }
}
