//! Numbers that may not be finite, as JSON carries them: a finite number as
//! a number, and `-inf`, `inf` and `nan` as those strings. JSON has no
//! infinity, and serde_json would write `null` for one, which no `f32` reads
//! back: a beam lane with `forced_eos_token_id` records `-inf` scores, and
//! its step could not cross from the worker to the page. Used with
//! `#[serde(with = "crate::wire_float")]` on the records' floats; a `null`
//! (how older exports wrote a non-finite number) reads as `nan`.

use serde::de::{self, Deserializer, Visitor};
use serde::Serializer;
use std::fmt;

pub fn serialize<S: Serializer>(v: &f32, s: S) -> Result<S::Ok, S::Error> {
    match *v {
        v if v.is_finite() => s.serialize_f32(v),
        v if v.is_nan() => s.serialize_str("nan"),
        v if v > 0.0 => s.serialize_str("inf"),
        _ => s.serialize_str("-inf"),
    }
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
    d.deserialize_any(WireFloat)
}

struct WireFloat;

impl<'de> Visitor<'de> for WireFloat {
    type Value = f32;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number, or \"-inf\", \"inf\" or \"nan\"")
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f32, E> {
        Ok(v as f32)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f32, E> {
        Ok(v as f32)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f32, E> {
        Ok(v as f32)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<f32, E> {
        match v {
            "-inf" => Ok(f32::NEG_INFINITY),
            "inf" => Ok(f32::INFINITY),
            "nan" => Ok(f32::NAN),
            _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
        }
    }
    fn visit_unit<E: de::Error>(self) -> Result<f32, E> {
        Ok(f32::NAN)
    }
}

/// The same for an `Option<f32>` whose `None` is `null`.
pub mod option {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<f32>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => super::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
        #[derive(Deserialize)]
        struct Wrapped(#[serde(with = "super")] f32);
        Ok(Option::<Wrapped>::deserialize(d)?.map(|w| w.0))
    }
}

/// The same for a list.
pub mod vec {
    use serde::ser::SerializeSeq;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Wrapped(#[serde(with = "super")] f32);

    pub fn serialize<S: Serializer>(v: &[f32], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for &x in v {
            seq.serialize_element(&Wrapped(x))?;
        }
        seq.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f32>, D::Error> {
        Ok(Vec::<Wrapped>::deserialize(d)?
            .into_iter()
            .map(|w| w.0)
            .collect())
    }
}

/// The same for an `f64` (a KL divergence, whose terms need the width).
pub mod wide {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        match *v {
            v if v.is_finite() => s.serialize_f64(v),
            v => super::serialize(&(v as f32), s),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wide {
            Number(f64),
            Other(#[serde(with = "super")] f32),
        }
        Ok(match Wide::deserialize(d)? {
            Wide::Number(v) => v,
            Wide::Other(v) => v as f64,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Serialize, Deserialize)]
    struct Row {
        #[serde(with = "super")]
        x: f32,
        #[serde(with = "super::option")]
        y: Option<f32>,
        #[serde(with = "super::vec")]
        z: Vec<f32>,
    }

    fn same(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn every_float_reads_back_as_written_finite_or_not() {
        let specials = [
            f32::NEG_INFINITY,
            f32::INFINITY,
            f32::NAN,
            0.0,
            -0.0,
            1.5e-30,
            f32::MAX,
        ];
        // A seeded sweep over ordinary values and the non-finite ones, in
        // every position a record holds a float.
        let mut state = 0x9e37_79b9_u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        for i in 0..2_000 {
            let pick = |r: u32| {
                if r.is_multiple_of(3) {
                    specials[(r / 3) as usize % specials.len()]
                } else {
                    f32::from_bits(r & 0x7f7f_ffff) * if r & 1 == 0 { 1.0 } else { -1.0 }
                }
            };
            let row = Row {
                x: pick(next()),
                y: (i % 4 != 0).then(|| pick(next())),
                z: (0..i % 5).map(|_| pick(next())).collect(),
            };
            let json = serde_json::to_string(&row).unwrap();
            let back: Row = serde_json::from_str(&json).unwrap();
            assert!(same(back.x, row.x), "{json}");
            assert_eq!(back.y.is_some(), row.y.is_some(), "{json}");
            if let (Some(a), Some(b)) = (back.y, row.y) {
                assert!(same(a, b), "{json}");
            }
            assert_eq!(back.z.len(), row.z.len());
            assert!(
                back.z.iter().zip(&row.z).all(|(a, b)| same(*a, *b)),
                "{json}"
            );
        }
    }

    #[test]
    fn infinities_travel_as_strings_and_an_old_null_reads_as_nan() {
        let row = Row {
            x: f32::NEG_INFINITY,
            y: Some(f32::INFINITY),
            z: vec![f32::NAN, 1.0],
        };
        let json = serde_json::to_string(&row).unwrap();
        assert_eq!(json, r#"{"x":"-inf","y":"inf","z":["nan",1.0]}"#);
        let old: Row = serde_json::from_str(r#"{"x":null,"y":null,"z":[]}"#).unwrap();
        assert!(old.x.is_nan() && old.y.is_none());
        assert!(serde_json::from_str::<Row>(r#"{"x":"many","y":null,"z":[]}"#).is_err());
    }
}
