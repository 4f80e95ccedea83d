//! A value read as one type or, when it is not that type, as another: how a reader
//! tries a view's type first and falls back to a cheaper one from the same place.

use serde::Deserialize;
use serde::de::{Deserializer, SeqAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// A value read as `T` or, when it is not a `T`, as `U`. Only the YAML fast path can go
/// back and read it again (`fast_yaml::ATTEMPT`); other deserializers read it as `T` and
/// fail as `T` fails.
pub enum Attempt<T, U> {
    First(T),
    Second(U),
}

impl<'de, T: Deserialize<'de>, U: Deserialize<'de>> Deserialize<'de> for Attempt<T, U> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T, U>(PhantomData<(T, U)>);
        impl<'de, T: Deserialize<'de>, U: Deserialize<'de>> Visitor<'de> for V<T, U> {
            type Value = Attempt<T, U>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_newtype_struct<D: Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<Self::Value, D::Error> {
                T::deserialize(d).map(Attempt::First)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut tries: A) -> Result<Self::Value, A::Error> {
                if let Some(t) = tries.next_element::<T>()? {
                    return Ok(Attempt::First(t));
                }
                match tries.next_element::<U>()? {
                    Some(u) => Ok(Attempt::Second(u)),
                    None => Err(serde::de::Error::custom("no value to read")),
                }
            }
        }
        d.deserialize_newtype_struct(crate::parse::fast_yaml::ATTEMPT, V(PhantomData))
    }
}
