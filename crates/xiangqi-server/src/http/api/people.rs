//! The site's people: messages, game chat, buddy and ignore lists, who is here,
//! profile search, invitations and the counts for the page header.

use std::sync::Arc;

use axum::{
    extract::{Path, State},
    http::StatusCode,
};

use super::{Answer, created, ok};
use crate::model::accounts::UserSearch;
use crate::model::page::Page;
use crate::model::people::{InvitedGame, Mailbox};
use crate::{
    api::{
        requests::{
            ChatQuery, MailboxName, MailboxQuery, NewChatLine, NewInvitation, NewMessage, PageQuery,
            SearchQuery,
        },
        views::{
            ChatAnswer, ChatLine, ChatLineAnswer, ConversationView, ConversationsPage, Counts, GameSummary,
            HerePage, IgnoredAnswer, InvitationAnswer, InvitationPreview, InvitationView, InvitationsAnswer,
            InvitedGameView, MessageAnswer, MessageView, MessagesPage, PeopleAnswer, PersonView, SearchPage,
            UserView,
        },
    },
    domain::{
        people::{HERE_MS, People, Person},
        refusal::TextField,
    },
    error::{ApiResult, ErrorBody, Refusal},
    http::{
        AppState,
        auth::{Body, MaybeUser, Params, User},
    },
    model::Relation,
};

/// Send a private message.
#[utoipa::path(post, path = "/messages", tag = "people", request_body = NewMessage,
    responses(
        (status = 201, body = MessageAnswer),
        (status = 400, description = "Empty, over 2000 characters, or to oneself.", body = ErrorBody),
        (status = 403, description = "The recipient does not accept messages from you.", body = ErrorBody),
        (status = 404, description = "No such user.", body = ErrorBody),
        (status = 429, description = "More than 10 messages a minute or 200 a day (the \
            defaults); `retry_after` and the `Retry-After` header say when to try again.", body = ErrorBody)))]
pub async fn send_message(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(m): Body<NewMessage>,
) -> Answer<MessageAnswer> {
    let sent =
        state.services.people.send_message(&user.name, &m.to, &m.body, state.services.clock.now_ms()).await?;
    created(MessageAnswer { message: MessageView::from(&sent) })
}

/// My received (`box=inbox`) or sent (`box=sent`) messages, newest first.
#[utoipa::path(get, path = "/messages", tag = "people", params(MailboxQuery),
    responses((status = 200, body = MessagesPage), (status = 400, body = ErrorBody)))]
pub async fn mailbox(
    State(state): State<Arc<AppState>>,
    user: User,
    Params(q): Params<MailboxQuery>,
) -> Answer<MessagesPage> {
    let which = match q.mailbox.unwrap_or(MailboxName::Inbox) {
        MailboxName::Inbox => Mailbox::Inbox,
        MailboxName::Sent => Mailbox::Sent,
    };
    let page =
        state.services.people.mailbox(&user.name, which, &Page { after: q.after, limit: q.limit }).await?;
    ok(MessagesPage::new(page.items.iter().map(MessageView::from).collect(), page.next))
}

/// My conversations, one per person, the latest first.
#[utoipa::path(get, path = "/messages/conversations", tag = "people", params(PageQuery),
    responses((status = 200, body = ConversationsPage), (status = 400, body = ErrorBody)))]
pub async fn conversations(
    State(state): State<Arc<AppState>>,
    user: User,
    Params(q): Params<PageQuery>,
) -> Answer<ConversationsPage> {
    let page = state.services.people.conversations(&user.name, &Page::from(q)).await?;
    ok(ConversationsPage::new(page.items.iter().map(ConversationView::from).collect(), page.next))
}

/// My messages with one person, newest first.
#[utoipa::path(get, path = "/messages/with/{name}", tag = "people", params(("name" = String, Path), PageQuery),
    responses((status = 200, body = MessagesPage), (status = 404, body = ErrorBody)))]
pub async fn conversation(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(name): Path<String>,
    Params(q): Params<PageQuery>,
) -> Answer<MessagesPage> {
    let page = state.services.people.conversation(&user.name, &name, &Page::from(q)).await?;
    ok(MessagesPage::new(page.items.iter().map(MessageView::from).collect(), page.next))
}

/// Mark everything one person sent me as read.
#[utoipa::path(post, path = "/messages/with/{name}/read", tag = "people", params(("name" = String, Path)),
    responses((status = 204, description = "Read."), (status = 404, body = ErrorBody)))]
pub async fn mark_read(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(name): Path<String>,
) -> ApiResult<StatusCode> {
    state.services.people.mark_read(&user.name, &name, state.services.clock.now_ms()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Delete a message for myself (the other side keeps it).
#[utoipa::path(delete, path = "/messages/{id}", tag = "people", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted."), (status = 404, description = "No such message of mine.", body = ErrorBody)))]
pub async fn delete_message(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    state.services.people.delete_message(&user.name, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// What waits for me: games at my move, challenges to me and unread messages.
#[utoipa::path(get, path = "/me/counts", tag = "people", responses((status = 200, body = Counts)))]
pub async fn counts(State(state): State<Arc<AppState>>, user: User) -> Answer<Counts> {
    let w = state.services.people.waiting(&user.name).await?;
    ok(Counts { my_turn: w.my_turn, challenges: w.challenges, unread_messages: w.unread_messages })
}

/// A game's chat, oldest first: the lines after `after` (at most the latest 200).
/// The two players write; anyone may read.
#[utoipa::path(get, path = "/games/{id}/chat", tag = "games", params(("id" = String, Path), ChatQuery),
    responses((status = 200, body = ChatAnswer), (status = 404, body = ErrorBody)))]
pub async fn chat(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Params(q): Params<ChatQuery>,
) -> Answer<ChatAnswer> {
    let lines = state.services.people.chat_lines(&id, q.after).await?;
    ok(ChatAnswer { lines: lines.iter().map(ChatLine::from).collect() })
}

/// Write in a game's chat (players only); watchers get it live as a `chat` event.
#[utoipa::path(post, path = "/games/{id}/chat", tag = "games", params(("id" = String, Path)), request_body = NewChatLine,
    responses(
        (status = 201, body = ChatLineAnswer),
        (status = 400, description = "Empty or over 500 characters.", body = ErrorBody),
        (status = 403, description = "Not a player, or the opponent does not accept chat from you.", body = ErrorBody),
        (status = 429, description = "More than 20 lines a minute (the default); `retry_after` \
            says when to try again.", body = ErrorBody)))]
pub async fn write_chat(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(id): Path<String>,
    Body(c): Body<NewChatLine>,
) -> Answer<ChatLineAnswer> {
    let line = state.services.people.chat(&user.name, &id, &c.body, state.services.clock.now_ms()).await?;
    created(ChatLineAnswer { line: ChatLine::from(&line) })
}

/// People as lists show them: online state and their current games (at most
/// ten each), the games of all of them read at once.
/// People as lists show them, as seen at `now`.
fn person_views(people: Vec<Person>, now: i64) -> Vec<PersonView> {
    people
        .into_iter()
        .map(|p| PersonView {
            name: p.user.name.clone(),
            rating: p.user.rating,
            online: People::is_here(&p.user, now),
            seen: p.user.seen_ms,
            buddy: p.buddy,
            games: p.games.iter().map(GameSummary::from).collect(),
        })
        .collect()
}

/// My buddies by name, a page at a time (100 unless `limit` says fewer), those
/// online first within the page, with what they are playing.
#[utoipa::path(get, path = "/me/buddies", tag = "people", params(PageQuery),
    responses((status = 200, body = PeopleAnswer), (status = 400, description = "A bad query string.", body = ErrorBody)))]
pub async fn buddies(
    State(state): State<Arc<AppState>>,
    user: User,
    Params(q): Params<PageQuery>,
) -> Answer<PeopleAnswer> {
    let now = state.services.clock.now_ms();
    let page = state.services.people.buddies_page(&user.name, &q.or_longest(), now).await?;
    ok(PeopleAnswer::new(person_views(page.items, now), page.next))
}

/// Who is here: users seen in the last 5 minutes, the most recently seen first,
/// a page at a time (50 unless `limit` says otherwise, at most 100), my buddies
/// first within it, with their ratings and the games they are playing.
#[utoipa::path(get, path = "/users/online", tag = "people", params(PageQuery),
    responses((status = 200, body = HerePage), (status = 400, description = "A bad query string.", body = ErrorBody)))]
pub async fn online(
    State(state): State<Arc<AppState>>,
    me: MaybeUser,
    Params(q): Params<PageQuery>,
) -> Answer<HerePage> {
    let now = state.services.clock.now_ms();
    let page =
        state.services.people.here(me.0.as_ref().map(|u| u.name.as_str()), &Page::from(q), now).await?;
    ok(HerePage::new(person_views(page.items, now), page.next))
}

/// Put a user on my buddy list (taking them off my ignore list).
#[utoipa::path(put, path = "/me/buddies/{name}", tag = "people", params(("name" = String, Path)),
    responses((status = 204, description = "Added."), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn add_buddy(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(name): Path<String>,
) -> ApiResult<StatusCode> {
    state.services.people.relate(&user.name, &name, Relation::Buddy, state.services.clock.now_ms()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Take a user off my buddy list.
#[utoipa::path(delete, path = "/me/buddies/{name}", tag = "people", params(("name" = String, Path)),
    responses((status = 204, description = "Removed."), (status = 404, body = ErrorBody)))]
pub async fn remove_buddy(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(name): Path<String>,
) -> ApiResult<StatusCode> {
    state.services.people.unrelate(&user.name, &name, Relation::Buddy).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// My ignore list (private: nobody else sees it), by name, a page at a time
/// (100 unless `limit` says fewer).
#[utoipa::path(get, path = "/me/ignored", tag = "people", params(PageQuery),
    responses((status = 200, body = IgnoredAnswer), (status = 400, description = "A bad query string.", body = ErrorBody)))]
pub async fn ignored(
    State(state): State<Arc<AppState>>,
    user: User,
    Params(q): Params<PageQuery>,
) -> Answer<IgnoredAnswer> {
    let page = q.or_longest();
    let page = state.services.people.related_users(&user.name, Relation::Ignore, &page).await?;
    ok(IgnoredAnswer::new(page.items.into_iter().map(|u| u.name).collect(), page.next))
}

/// Ignore a user: they can no longer message me, challenge me, be paired with me
/// or chat in my games (taking them off my buddy list).
#[utoipa::path(put, path = "/me/ignored/{name}", tag = "people", params(("name" = String, Path)),
    responses((status = 204, description = "Ignored."), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn ignore(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(name): Path<String>,
) -> ApiResult<StatusCode> {
    state.services.people.relate(&user.name, &name, Relation::Ignore, state.services.clock.now_ms()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Stop ignoring a user.
#[utoipa::path(delete, path = "/me/ignored/{name}", tag = "people", params(("name" = String, Path)),
    responses((status = 204, description = "No longer ignored."), (status = 404, body = ErrorBody)))]
pub async fn unignore(
    State(state): State<Arc<AppState>>,
    user: User,
    Path(name): Path<String>,
) -> ApiResult<StatusCode> {
    state.services.people.unrelate(&user.name, &name, Relation::Ignore).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Search user profiles by name (a prefix or any part), rating and whether online; by name, a page at a time.
#[utoipa::path(get, path = "/users/search", tag = "people", params(SearchQuery),
    responses((status = 200, body = SearchPage), (status = 400, body = ErrorBody)))]
pub async fn search(
    State(state): State<Arc<AppState>>,
    Params(q): Params<SearchQuery>,
) -> Answer<SearchPage> {
    for part in [&q.name, &q.contains].into_iter().flatten() {
        if part.chars().count() > 20 {
            return Err(Refusal::TextLength { field: TextField::Search, min: 0, max: 20 }.into());
        }
    }
    let search = UserSearch {
        prefix: q.name,
        contains: q.contains,
        min_rating: q.min_rating,
        max_rating: q.max_rating,
        seen_since: q.online.then(|| state.services.clock.now_ms() - HERE_MS),
    };
    let page = state.services.people.search_users(&search, &Page { after: q.after, limit: q.limit }).await?;
    ok(SearchPage::new(page.items.iter().map(UserView::from).collect(), page.next))
}

/// Make an invitation link to hand to a friend (nothing is sent by the site).
#[utoipa::path(post, path = "/me/invitations", tag = "people", request_body = NewInvitation,
    responses((status = 201, body = InvitationAnswer), (status = 400, body = ErrorBody), (status = 409, description = "100 invitations made already.", body = ErrorBody)))]
pub async fn invite(
    State(state): State<Arc<AppState>>,
    user: User,
    Body(i): Body<NewInvitation>,
) -> Answer<InvitationAnswer> {
    let game = i.challenge.map(|c| InvitedGame { rules: c.rules, color: c.color, clock: c.clock });
    let row = state.services.invitations.invite(&user.name, game, state.services.clock.now_ms()).await?;
    created(InvitationAnswer { invitation: InvitationView::from(&row) })
}

/// My invitations, newest first, a page at a time (100 unless `limit` says fewer).
#[utoipa::path(get, path = "/me/invitations", tag = "people", params(PageQuery),
    responses((status = 200, body = InvitationsAnswer), (status = 400, description = "A bad query string.", body = ErrorBody)))]
pub async fn invitations(
    State(state): State<Arc<AppState>>,
    user: User,
    Params(q): Params<PageQuery>,
) -> Answer<InvitationsAnswer> {
    let page = q.or_longest();
    let page = state.services.invitations.invitations_of(&user.name, &page).await?;
    ok(InvitationsAnswer::new(page.items.iter().map(InvitationView::from).collect(), page.next))
}

/// Who invites, for the page an invitation link opens (no log-in needed).
#[utoipa::path(get, path = "/invitations/{code}", tag = "people", params(("code" = String, Path)),
    responses((status = 200, body = InvitationPreview), (status = 400, description = "No such invitation.", body = ErrorBody)))]
pub async fn invitation(
    State(state): State<Arc<AppState>>,
    Path(code): Path<String>,
) -> Answer<InvitationPreview> {
    let i = state.services.invitations.invitation(&code).await?;
    let challenge = i.game.map(|g| InvitedGameView { rules: g.rules, color: g.color, clock: g.clock });
    ok(InvitationPreview { inviter: i.inviter, challenge })
}
