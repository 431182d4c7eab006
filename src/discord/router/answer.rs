//! Answering an interaction within Discord's rules: deferred when the work takes long,
//! the first reply as the response (or the deferral's completion), the rest as follow-ups,
//! each retried while Discord fails; counted once in the metrics and the log. The app's
//! [`Respond`] port on Discord ([`Responder`]): the app does the rest ([`App::serve`]).

use super::*;

/// Discord refuses an interaction's first answer after 3 s; stop trying a little before.
const ANSWER_WINDOW: Duration = Duration::from_millis(2800);
/// How often, and how far apart, the message of an answer sent by HTTP is looked for again.
const HTTP_READ_BACK_TRIES: u32 = 10;
const HTTP_READ_BACK_WAIT: Duration = Duration::from_millis(200);
/// The kind of interaction an answer goes back to.
#[derive(Clone, Copy)]
pub(super) enum Source<'a> {
    Command(&'a CommandInteraction),
    Component(&'a ComponentInteraction),
}

/// The interaction an answer goes back to, and where its first answer goes: Discord's
/// callback endpoint (gateway), or the body of Discord's HTTP request (`damas serve`).
#[derive(Clone, Copy)]
pub(super) struct Target<'a> {
    pub(super) source: Source<'a>,
    pub(super) http_answer: Option<&'a HttpAnswer>,
    /// Told once the answer is deferred, for work that edits the deferred answer meanwhile.
    pub(super) deferred: Option<&'a tokio::sync::watch::Sender<bool>>,
    /// Set when the first answer reached Discord.
    pub(super) answered: &'a FirstAnswer,
}

/// When an interaction's first answer (a message, a deferral, an acknowledgement) reached
/// Discord, if it has.
#[derive(Default)]
pub(super) struct FirstAnswer(std::sync::OnceLock<Instant>);

impl FirstAnswer {
    pub(super) fn at(&self) -> Option<Instant> {
        self.0.get().copied()
    }
}

impl Target<'_> {
    fn token(&self) -> &str {
        match self.source {
            Source::Command(c) => &c.token,
            Source::Component(c) => &c.token,
        }
    }

    pub(super) async fn respond(
        &self,
        http: &Http,
        r: CreateInteractionResponse,
    ) -> serenity::Result<()> {
        let sent = match (self.http_answer, self.source) {
            (Some(answer), _) => answer.send(r),
            (None, Source::Command(c)) => c.create_response(http, r).await,
            (None, Source::Component(c)) => c.create_response(http, r).await,
        };
        if sent.is_ok() {
            let _ = self.answered.0.set(Instant::now());
        }
        sent
    }

    /// The interaction's kind as metrics and logs name it: the command's name (from the
    /// app's table, so a bounded set), `component`, or `unknown`.
    fn kind(&self) -> &'static str {
        match self.source {
            Source::Command(c) => read::invocation(c).map_or("unknown", |inv| inv.command.key),
            Source::Component(_) => "component",
        }
    }
}

/// Answers an interaction with one response and nothing after it (the Activity's launch,
/// autocomplete's choices), and counts it as `kind`: the first answer's latency from
/// `received` when it reached Discord, late otherwise.
pub(super) async fn respond_once(
    http: &Http,
    source: Source<'_>,
    http_answer: Option<&HttpAnswer>,
    kind: &'static str,
    received: Instant,
    response: CreateInteractionResponse,
) -> serenity::Result<()> {
    let answered = FirstAnswer::default();
    let target = Target {
        source,
        http_answer,
        deferred: None,
        answered: &answered,
    };
    let sent = target.respond(http, response).await;
    let outcome = match answered.at() {
        Some(at) => {
            metrics::answer_latency(kind, at.duration_since(received));
            Outcome::Answered
        }
        None => Outcome::Late,
    };
    metrics::interaction(kind, outcome);
    sent
}

impl Handler {
    /// Runs a use case for an interaction and delivers its answer: deferred first if it takes
    /// long, retried while Discord fails, in the channel if the interaction is gone.
    pub(super) async fn interact(
        &self,
        http: &Arc<Http>,
        target: Target<'_>,
        out: &Arc<dyn Delivery>,
        actor: &Actor,
        place: Place,
        work: impl std::future::Future<Output = Answer>,
    ) {
        let received = Instant::now();
        let lang = actor.lang();
        let mut work = std::pin::pin!(AssertUnwindSafe(work).catch_unwind());
        let mut deferred = false;
        let outcome = if self.defer_after.is_zero() {
            deferred = self.defer(http, target, received + ANSWER_WINDOW).await;
            work.await
        } else {
            tokio::select! {
                done = &mut work => done,
                () = tokio::time::sleep(self.defer_after) => {
                    deferred = self.defer(http, target, received + ANSWER_WINDOW).await;
                    work.await
                }
            }
        };
        let answer = match outcome {
            Ok(answer) => answer.for_actor(actor.user_id),
            Err(_) => {
                tracing::error!("a use case panicked in channel {}", place.channel_id);
                Reply::failure(i18n::t(lang, fl!("err-bot-failed"))).into()
            }
        };
        let said = |o: ReplyOutcome| answer.replies.iter().any(|r| r.outcome == o);
        let counted = CountOnDrop {
            target,
            received,
            failed: said(ReplyOutcome::Failed),
            refused: said(ReplyOutcome::Refused),
            shard: (target.http_answer.is_none())
                .then(|| shard_of(place.guild_id, self.shard_count.load(Ordering::Relaxed))),
        };
        // The body of Discord's HTTP request carries no files: a board (a picture) answered
        // by HTTP is deferred, then shown like any deferred answer.
        let has_files = |r: &Reply| r.image.is_some() || !r.files.is_empty();
        if target.http_answer.is_some()
            && !deferred
            && answer.replies.first().is_some_and(has_files)
        {
            deferred = self.defer(http, target, received + ANSWER_WINDOW).await;
        }
        let responder = Responder {
            handler: self,
            http,
            target,
            deferred,
            received,
        };
        self.app.serve(answer, place, lang, &responder, out).await;
        drop(counted);
    }

    /// Tells Discord the answer is coming. Returns whether it took.
    async fn defer(&self, http: &Arc<Http>, target: Target<'_>, deadline: Instant) -> bool {
        let defer = || match target.source {
            // "The bot is thinking…", public: most answers are boards for everyone.
            Source::Command(_) => {
                CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new())
            }
            Source::Component(_) => CreateInteractionResponse::Acknowledge,
        };
        let took =
            match with_retries("defer", Some(deadline), || target.respond(http, defer())).await {
                Ok(()) => true,
                Err(e) if deliver::json_code(&e) == Some(ALREADY_ACKNOWLEDGED) => true,
                Err(e) => {
                    tracing::warn!("could not defer an interaction: {e}");
                    false
                }
            };
        if let (true, Some(deferred)) = (took, target.deferred) {
            deferred.send_replace(true);
        }
        took
    }

    /// The first reply as the interaction's own answer, then its message (for a board).
    async fn respond_with(
        &self,
        http: &Http,
        target: Target<'_>,
        reply: &Reply,
        received: Instant,
    ) -> serenity::Result<Option<Message>> {
        let answered = with_retries(
            "answer an interaction",
            Some(received + ANSWER_WINDOW),
            || {
                let r = CreateInteractionResponse::Message(Rendered::new(reply).response());
                target.respond(http, r)
            },
        )
        .await;
        match answered {
            Ok(()) => {}
            // A retry after a lost answer: the first one had arrived.
            Err(e) if deliver::json_code(&e) == Some(ALREADY_ACKNOWLEDGED) => {}
            Err(e) => return Err(e),
        }
        // Boards, challenges and thread lines are remembered by their message (to strip,
        // close or complete later).
        if reply.board_of.is_none() && reply.challenge_of.is_none() && reply.line_of.is_none() {
            return Ok(None);
        }
        let read_back = || {
            with_retries("read an answer back", None, || {
                http.get_original_interaction_response(target.token())
            })
        };
        let mut message = read_back().await;
        // An answer in the body of Discord's HTTP request becomes a message only once Discord
        // has read that body, which may be a moment after this process wrote it.
        if target.http_answer.is_some() {
            for _ in 0..HTTP_READ_BACK_TRIES {
                match &message {
                    Err(e) if deliver::json_code(e) == Some(UNKNOWN_MESSAGE) => {
                        tokio::time::sleep(HTTP_READ_BACK_WAIT).await;
                        message = read_back().await;
                    }
                    _ => break,
                }
            }
        }
        message.map(Some)
    }

    async fn followup(
        &self,
        http: &Http,
        target: Target<'_>,
        reply: &Reply,
    ) -> serenity::Result<Message> {
        with_retries("send a follow-up", None, || async {
            let m = Rendered::new(reply).followup();
            match target.source {
                Source::Command(c) => c.create_followup(http, m).await,
                Source::Component(c) => c.create_followup(http, m).await,
            }
        })
        .await
    }

    /// An answer with nothing to say still answers the interaction.
    async fn acknowledge(
        &self,
        http: &Arc<Http>,
        target: Target<'_>,
        deferred: bool,
        received: Instant,
    ) {
        let result = match (deferred, target.source) {
            (true, Source::Component(_)) => Ok(()),
            (true, Source::Command(c)) => c.delete_response(http).await,
            (false, _) => {
                with_retries("acknowledge", Some(received + ANSWER_WINDOW), || {
                    let ack = match target.source {
                        Source::Component(_) => CreateInteractionResponse::Acknowledge,
                        Source::Command(_) => CreateInteractionResponse::Message(
                            Rendered::new(&Reply::private("✓")).response(),
                        ),
                    };
                    target.respond(http, ack)
                })
                .await
            }
        };
        if let Err(e) = result {
            tracing::warn!("could not acknowledge an interaction: {e}");
        }
    }
}

/// Counts an interaction when its delivery ends (also if the task is cut short): its outcome
/// and first answer's latency in the metrics, and one log event (no user text, no token).
struct CountOnDrop<'a> {
    target: Target<'a>,
    received: Instant,
    /// The answer said the request failed, or refused it.
    failed: bool,
    refused: bool,
    /// The gateway shard it came on (`None` over HTTP).
    shard: Option<u32>,
}

impl Drop for CountOnDrop<'_> {
    fn drop(&mut self) {
        let first = self
            .target
            .answered
            .at()
            .map(|at| at.duration_since(self.received));
        let outcome = match first {
            None => Outcome::Late,
            Some(latency) if latency > DISCORD_DEADLINE => Outcome::Late,
            Some(_) if self.failed => Outcome::Failed,
            Some(_) if self.refused => Outcome::Refused,
            Some(_) => Outcome::Answered,
        };
        let kind = self.target.kind();
        if let Some(latency) = first {
            metrics::answer_latency(kind, latency);
        }
        metrics::interaction(kind, outcome);
        tracing::info!(
            target: "damas::interaction",
            kind,
            outcome = outcome.label(),
            latency_ms = first.map(|l| l.as_millis() as u64),
            shard = self.shard,
            "interaction"
        );
    }
}

/// Shows an answer as the interaction's response: the first reply as its response (or the
/// completion of the deferred one), the rest as follow-ups. What could not be shown is
/// reported to the app, which posts a public reply in the channel instead.
struct Responder<'a> {
    handler: &'a Handler,
    http: &'a Arc<Http>,
    target: Target<'a>,
    /// The interaction was deferred: its answer completes (or follows) the deferral.
    deferred: bool,
    received: Instant,
}

#[async_trait::async_trait]
impl Respond for Responder<'_> {
    async fn answer(&self, first: &Reply) -> Shown {
        let (handler, http, target) = (self.handler, self.http, self.target);
        let shown = match (self.deferred, target.source) {
            (false, _) => {
                handler
                    .respond_with(http, target, first, self.received)
                    .await
            }
            (true, Source::Command(c)) if !first.is_private() => {
                with_retries("complete a deferred answer", None, || {
                    c.edit_response(http, Rendered::new(first).edit_original())
                })
                .await
                .map(Some)
            }
            (true, Source::Command(c)) => {
                // A deferred answer is public; a private one goes out as an ephemeral
                // follow-up and the placeholder is removed.
                let sent = handler.followup(http, target, first).await;
                if let Err(e) =
                    with_retries("remove a placeholder", None, || c.delete_response(http)).await
                {
                    tracing::debug!("could not remove a deferred placeholder: {e}");
                }
                sent.map(Some)
            }
            (true, Source::Component(_)) => handler.followup(http, target, first).await.map(Some),
        };
        shown_as(shown)
    }

    async fn follow_up(&self, reply: &Reply) -> Shown {
        shown_as(
            self.handler
                .followup(self.http, self.target, reply)
                .await
                .map(Some),
        )
    }

    async fn acknowledge(&self) {
        self.handler
            .acknowledge(self.http, self.target, self.deferred, self.received)
            .await;
    }
}

/// What became of a reply, as the app is told.
fn shown_as(shown: serenity::Result<Option<Message>>) -> Shown {
    match shown {
        Ok(Some(m)) => Shown::Message(m.id.get()),
        Ok(None) => Shown::Shown,
        Err(e) => Shown::Lost(e.to_string()),
    }
}
