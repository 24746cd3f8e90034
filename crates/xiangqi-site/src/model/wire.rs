//! How the rules crate's enums (colour, rule set, variant, reason) travel:
//! by their stable names, as the store keeps them. The rules crate has no
//! serde; these adapters and schemas stand in for derives, for the domain's
//! own types (a refusal's particulars) as for the API's.

use std::borrow::Cow;

use serde::{Deserialize, Deserializer, Serializer, de::Error as _};
use utoipa::openapi::{ObjectBuilder, Type, schema::SchemaType};

use crate::model::Named;

/// `#[serde(with = "wire::named")]` for a field of a [`Named`] type.
pub mod named {
    use super::*;

    pub fn serialize<T: Named, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(value.name())
    }

    pub fn deserialize<'de, T: Named, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let text = Cow::<str>::deserialize(d)?;
        T::parse(&text).map_err(D::Error::custom)
    }
}

/// `#[serde(with = "wire::optional")]` for an `Option` of a [`Named`] type.
pub mod optional {
    use super::*;

    pub fn serialize<T: Named, S: Serializer>(value: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.serialize_str(v.name()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: Named, D: Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
        Option::<Cow<str>>::deserialize(d)?.map(|text| T::parse(&text).map_err(D::Error::custom)).transpose()
    }
}

fn names<T: Named>() -> Vec<&'static str> {
    T::all().iter().map(|v| v.name()).collect()
}

/// The API document's schema of a [`Named`] type: one of its names.
pub fn schema<T: Named>() -> utoipa::openapi::Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(names::<T>()))
        .description(Some(T::WHAT))
        .build()
}

/// The same, or `null`.
pub fn nullable<T: Named>() -> utoipa::openapi::Object {
    let mut values: Vec<Option<&str>> = names::<T>().into_iter().map(Some).collect();
    values.push(None);
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .enum_values(Some(values))
        .description(Some(format!("{}, or null", T::WHAT)))
        .build()
}
