//! One page type for every list that comes a page at a time: the page's items
//! under the list's own name (`users`, `messages`, ...) and `next`, the key
//! of the next page. A list is a [`Listing`]: what it holds, the name its
//! items go under and the page's name in the API document.

use std::{borrow::Cow, marker::PhantomData};

use serde::{Serialize, Serializer, ser::SerializeStruct};
use utoipa::{
    PartialSchema, ToSchema,
    openapi::{ArrayBuilder, ObjectBuilder, RefOr, Schema, Type, schema::SchemaType},
};

/// A list that comes a page at a time.
pub trait Listing {
    type Item: Serialize + PartialSchema;
    /// The name the page's items go under.
    const FIELD: &'static str;
    /// The page's name in the API document.
    const NAME: &'static str;
    /// What the page holds, for the API document.
    const ABOUT: &'static str;
    /// An item's schema: a reference to the item's type, unless it is a plain value.
    fn item() -> RefOr<Schema>;
    /// The schemas an item's type names.
    fn item_schemas(_schemas: &mut Vec<(String, RefOr<Schema>)>) {}
}

/// A page of a [`Listing`].
pub struct Page<L: Listing> {
    pub items: Vec<L::Item>,
    /// The `after` of the next page; null on the last.
    pub next: Option<String>,
    listing: PhantomData<L>,
}

impl<L: Listing> Page<L> {
    pub fn new(items: Vec<L::Item>, next: Option<String>) -> Self {
        Page { items, next, listing: PhantomData }
    }
}

impl<L: Listing> Serialize for Page<L> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut page = serializer.serialize_struct(L::NAME, 2)?;
        page.serialize_field(L::FIELD, &self.items)?;
        page.serialize_field("next", &self.next)?;
        page.end()
    }
}

impl<L: Listing> PartialSchema for Page<L> {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .description(Some(L::ABOUT))
            .property(L::FIELD, ArrayBuilder::new().items(L::item()))
            .required(L::FIELD)
            .property(
                "next",
                ObjectBuilder::new()
                    .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
                    .description(Some("The `after` of the next page; null on the last.")),
            )
            .into()
    }
}

impl<L: Listing> ToSchema for Page<L> {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed(L::NAME)
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        L::item_schemas(schemas);
    }
}

/// Declares listings of items of a type named in the API document.
macro_rules! listings {
    ($($(#[$doc:meta])* $page:ident = $listing:ident of $item:ty as $field:literal: $about:literal;)+) => {
        $(
            $(#[$doc])*
            pub struct $listing;

            impl $crate::api::views::page::Listing for $listing {
                type Item = $item;
                const FIELD: &'static str = $field;
                const NAME: &'static str = stringify!($page);
                const ABOUT: &'static str = $about;

                fn item() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
                    utoipa::openapi::Ref::from_schema_name(<$item as utoipa::ToSchema>::name()).into()
                }

                fn item_schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>) {
                    schemas.push((
                        <$item as utoipa::ToSchema>::name().into_owned(),
                        <$item as utoipa::PartialSchema>::schema(),
                    ));
                    <$item as utoipa::ToSchema>::schemas(schemas);
                }
            }

            $(#[$doc])*
            pub type $page = $crate::api::views::page::Page<$listing>;
        )+
    };
}
pub(crate) use listings;

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::api::views::{IgnoredAnswer, NewsPage};

    #[test]
    fn a_page_keeps_its_lists_name_on_the_wire_and_in_the_document() {
        let page = IgnoredAnswer::new(vec!["bob".into()], Some("bob".into()));
        assert_eq!(serde_json::to_value(&page).unwrap(), json!({"users": ["bob"], "next": "bob"}));
        let schema = serde_json::to_value(NewsPage::schema()).unwrap();
        assert_eq!(schema["required"], json!(["news"]));
        assert_eq!(schema["properties"]["news"]["items"]["$ref"], "#/components/schemas/NewsItem");
        assert_eq!(NewsPage::name(), "NewsPage");
    }
}
