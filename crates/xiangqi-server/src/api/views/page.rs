//! One page type for every list that comes a page at a time: the page's items
//! under the list's own name (`users`, `messages`, ...), `next`, the key of
//! the next page, and whatever else the answer holds beside the page (its
//! extras, a plain struct whose fields sit beside the items on the wire). A
//! list is a [`Listing`]: what it holds, the name its items go under and the
//! page's name in the API document.

use std::{borrow::Cow, marker::PhantomData};

use serde::{Serialize, Serializer, ser::SerializeMap};
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
    /// What the items are, for the API document, where the page's name does not say.
    const ITEMS: Option<&'static str> = None;
    /// What `next` is, for the API document.
    const NEXT: &'static str = "The `after` of the next page; null on the last.";
    /// An item's schema: a reference to the item's type, unless it is a plain value.
    fn item() -> RefOr<Schema>;
    /// The schemas an item's type names.
    fn item_schemas(_schemas: &mut Vec<(String, RefOr<Schema>)>) {}
}

/// A page of a [`Listing`], with the answer's extras `X` beside it.
pub struct Page<L: Listing, X = Alone> {
    pub items: Vec<L::Item>,
    /// The `after` of the next page; null on the last.
    pub next: Option<String>,
    pub extras: X,
    listing: PhantomData<L>,
}

/// The extras of a page that is the whole answer.
#[derive(Serialize, ToSchema)]
pub struct Alone {}

impl<L: Listing> Page<L> {
    pub fn new(items: Vec<L::Item>, next: Option<String>) -> Self {
        Page::with(items, next, Alone {})
    }
}

impl<L: Listing, X> Page<L, X> {
    pub fn with(items: Vec<L::Item>, next: Option<String>, extras: X) -> Self {
        Page { items, next, extras, listing: PhantomData }
    }
}

impl<L: Listing, X: Serialize> Serialize for Page<L, X> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// The items under the listing's own name.
        struct Items<'a, L: Listing>(&'a [L::Item]);
        impl<L: Listing> Serialize for Items<'_, L> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry(L::FIELD, self.0)?;
                map.end()
            }
        }
        #[derive(Serialize)]
        #[serde(bound = "")]
        struct Wire<'a, L: Listing, X: Serialize> {
            #[serde(flatten)]
            items: Items<'a, L>,
            #[serde(flatten)]
            extras: &'a X,
            next: &'a Option<String>,
        }
        Wire::<L, X> { items: Items(&self.items), extras: &self.extras, next: &self.next }
            .serialize(serializer)
    }
}

impl<L: Listing, X: ToSchema> PartialSchema for Page<L, X> {
    fn schema() -> RefOr<Schema> {
        let mut page = ObjectBuilder::new()
            .description(Some(L::ABOUT))
            .property(L::FIELD, ArrayBuilder::new().items(L::item()).description(L::ITEMS))
            .required(L::FIELD)
            .property(
                "next",
                ObjectBuilder::new()
                    .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
                    .description(Some(L::NEXT)),
            );
        if let RefOr::T(Schema::Object(extras)) = X::schema() {
            for (name, field) in extras.properties {
                page = page.property(name, field);
            }
            for name in extras.required {
                page = page.required(name);
            }
        }
        page.into()
    }
}

impl<L: Listing, X: ToSchema> ToSchema for Page<L, X> {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed(L::NAME)
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        L::item_schemas(schemas);
        X::schemas(schemas);
    }
}

/// Declares listings of items of a type named in the API document: `Page =
/// Listing of Item as "field"`, then optionally `with Extras` (what the answer
/// holds beside the page), `items "..."` (what they are, where the page's name
/// does not say) and `next "..."` (what its `next` walks), then `:`
/// and what the page holds.
macro_rules! listings {
    ($($(#[$doc:meta])* $page:ident = $listing:ident of $item:ty as $field:literal
        $(with $extras:ty)? $(, items $items:literal)? $(, next $next:literal)?: $about:literal;)+) => {
        $(
            $(#[$doc])*
            pub struct $listing;

            impl $crate::api::views::page::Listing for $listing {
                type Item = $item;
                const FIELD: &'static str = $field;
                const NAME: &'static str = stringify!($page);
                const ABOUT: &'static str = $about;
                $(const ITEMS: Option<&'static str> = Some($items);)?
                $(const NEXT: &'static str = $next;)?

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
            pub type $page = $crate::api::views::page::Page<$listing $(, $extras)?>;
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

    #[test]
    fn a_page_s_extras_sit_beside_its_items_on_the_wire_and_in_the_document() {
        use crate::api::views::{LeadersOf, LeadersPage};
        use crate::model::ratings::Category;
        let page =
            LeadersPage::with(Vec::new(), Some("k".into()), LeadersOf { category: Category::StandardLive });
        assert_eq!(
            serde_json::to_value(&page).unwrap(),
            json!({"leaders": [], "category": "standard_live", "next": "k"})
        );
        let schema = serde_json::to_value(LeadersPage::schema()).unwrap();
        assert_eq!(schema["required"], json!(["leaders", "category"]));
        let mut fields: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        fields.sort();
        assert_eq!(fields, ["category", "leaders", "next"]);
    }
}
