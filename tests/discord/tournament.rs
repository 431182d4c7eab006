//! A club's Swiss tournament from the first command to the final standings (issue 25), run by
//! a `damas bot` process against the Discord stand-in: six people create, join and start it
//! with `/tournament`, and play every game of its three rounds with `/move` in the game's
//! thread, deciding them by resignation, a draw and one loss on time. The process is killed
//! between rounds twice: once just after round 1's last game ended (before the bot could see
//! that the round was over), once while round 2's last game waits for a move that never
//! comes, its time running out while the bot is down.
//!
//! Checked: each round is paired and announced once, with each of its players notified once;
//! nobody meets twice; each game has its thread; the final standings name the winner and
//! carry the crosstable picture; and every player's points and tie-breaks are what the results
//! the test chose imply, computed here from the FIDE definitions.

use crate::support::bot::*;
use crate::support::stand_in::*;
use damas::engine::{Color, Game, Variant};
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

const TOURNAMENT: &str = "Club Swiss";
const PEOPLE: [&str; 6] = ["ana", "beto", "carla", "dani", "eva", "fede"];
const ROUNDS: u32 = 3;
/// Plies played with `/move` in every game before it is decided.
const PLIES: usize = 4;
const DAY_MS: u64 = 86_400_000;

/// One game of a round as the test follows it: its thread, its players (indices in
/// [`PEOPLE`]) and its moves.
struct Table {
    thread: Place,
    white: usize,
    black: usize,
    game: Game,
}

impl Table {
    fn has(&self, who: usize) -> bool {
        self.white == who || self.black == who
    }

    fn to_move(&self) -> usize {
        match self.game.side_to_move() {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    fn opponent(&self, who: usize) -> usize {
        if self.white == who {
            self.black
        } else {
            self.white
        }
    }
}

/// A game's result: White, Black and White's score in half-points (2 won, 1 drawn, 0 lost).
type Played = (usize, usize, u32);

/// The tournament's channel, its people and the bot process serving them.
struct Club {
    standin: StandIn,
    people: Vec<TestUser>,
    channel: Place,
}

impl Club {
    /// The answer to an interaction, completed if it was deferred.
    async fn answer(&self, sent: &SentInteraction) -> Recorded {
        let cb = self.standin.callback(sent).await;
        match cb.callback_type() {
            Some(5) => self.standin.original_edit(sent).await,
            _ => cb,
        }
    }

    /// `who` types `command` in `place`; the answer, which must say `expected`.
    async fn says(&self, who: usize, place: Place, command: Slash, expected: &str) -> Recorded {
        let sent = self
            .standin
            .send_slash(&self.people[who], place, command)
            .await;
        let answer = self.answer(&sent).await;
        assert!(
            text(&answer).contains(expected),
            "{} expected {expected:?}: {}",
            PEOPLE[who],
            answer.summary()
        );
        answer
    }

    /// `/tournament <sub>` in the tournament's channel.
    async fn tournament(
        &self,
        who: usize,
        sub: &str,
        options: Vec<Value>,
        expected: &str,
    ) -> Recorded {
        let command = Slash::subcommand("tournament", sub, options);
        self.says(who, self.channel, command, expected).await
    }

    /// The three threads of round `round` as they are opened, each with its first board.
    async fn tables(&self, round: u32) -> Vec<Table> {
        let mut tables = Vec::new();
        for _ in 0..PEOPLE.len() / 2 {
            let thread = self.standin.thread_created(self.channel.channel).await;
            let prefix = format!("{TOURNAMENT} · round {round} · ");
            let players = thread
                .name
                .strip_prefix(&prefix)
                .and_then(|rest| rest.split_once(" vs "))
                .unwrap_or_else(|| panic!("a round {round} thread name: {:?}", thread.name));
            let board = self.standin.channel_post(thread.id).await;
            assert!(board.file("board.png").is_some(), "{}", board.summary());
            tables.push(Table {
                thread: thread.place(),
                white: person(players.0),
                black: person(players.1),
                game: Game::new(Variant::Spanish),
            });
        }
        tables
    }

    /// [`PLIES`] moves in every game, each by whoever is to move, with `/move` in the game's
    /// thread; the games take turns, as people playing at once do.
    async fn play(&self, tables: &mut [Table]) {
        for _ in 0..PLIES {
            for t in tables.iter_mut() {
                let mv = t.game.position().legal_moves()[0];
                let notation = t.game.position().move_notation(&mv);
                let expected = format!("played {notation}");
                self.says(t.to_move(), t.thread, Slash::mv(&notation), &expected)
                    .await;
                t.game.play(mv).expect("a legal move");
            }
        }
    }

    /// `loser` resigns the game of `t`: its result.
    async fn resign(&self, t: &Table, loser: usize) -> Played {
        self.says(loser, t.thread, Slash::named("resign"), "resigned")
            .await;
        (t.white, t.black, if loser == t.black { 2 } else { 0 })
    }

    /// The player to move offers a draw, the other accepts it: its result.
    async fn agree_draw(&self, t: &Table) -> Played {
        let offering = t.to_move();
        self.says(offering, t.thread, Slash::named("draw"), "offers a draw")
            .await;
        let accept = Slash::named("draw").with("answer", "accept");
        self.says(t.opponent(offering), t.thread, accept, "accepted the draw")
            .await;
        (t.white, t.black, 1)
    }

    /// The next announcement of round `round` posted in the channel by the bot itself.
    async fn announced(&self, round: u32) -> Recorded {
        let title = round_title(round);
        let channel = self.channel.channel;
        self.standin
            .next_request(|r| bot_post_in(channel)(r) && text(r).contains(&title))
            .await
    }
}

fn person(name: &str) -> usize {
    PEOPLE
        .iter()
        .position(|p| *p == name)
        .unwrap_or_else(|| panic!("{name:?} is not one of the players"))
}

fn round_title(round: u32) -> String {
    format!("“{TOURNAMENT}”, round {round}")
}

/// The boards of an announcement: (white, black) for every line `Board n. W (white) against
/// B (black) — …`.
fn pairings_of(announcement: &str) -> Vec<(usize, usize)> {
    announcement
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("Board ")?;
            let (_, rest) = rest.split_once(". ")?;
            let (white, rest) = rest.split_once(" (white) against ")?;
            let (black, _) = rest.split_once(" (black)")?;
            Some((person(white), person(black)))
        })
        .collect()
}

/// The user ids an announcement mentions in its content (`<@id>`), in order, repeats kept.
fn mentioned(content: &str) -> Vec<u64> {
    content
        .split("<@")
        .skip(1)
        .filter_map(|rest| rest.split_once('>')?.0.parse().ok())
        .collect()
}

/// Checks one round's announcement: its boards are the round's threads, everyone plays
/// once, and each player is notified once — mentioned once in the content, and allowed to be
/// notified, nobody else. Except `acting`, when the announcement answers their own command:
/// nobody is notified of what they just did.
fn check_announcement(
    club: &Club,
    round: u32,
    announcement: &Recorded,
    tables: &[Table],
    acting: Option<usize>,
) {
    let body = announcement.message_body();
    let said = text(announcement);
    let mut boards = pairings_of(&said);
    let mut threads: Vec<(usize, usize)> = tables.iter().map(|t| (t.white, t.black)).collect();
    boards.sort_unstable();
    threads.sort_unstable();
    assert_eq!(
        boards, threads,
        "round {round}'s boards are its threads: {said}"
    );
    let mut everyone: Vec<usize> = boards.iter().flat_map(|&(w, b)| [w, b]).collect();
    everyone.sort_unstable();
    assert_eq!(everyone, (0..PEOPLE.len()).collect::<Vec<_>>(), "{said}");

    let mut ids: Vec<u64> = (0..PEOPLE.len())
        .filter(|&p| Some(p) != acting)
        .map(|p| club.people[p].id)
        .collect();
    ids.sort_unstable();
    let mut in_content = mentioned(body["content"].as_str().unwrap_or_default());
    in_content.sort_unstable();
    assert_eq!(
        in_content, ids,
        "each player mentioned once in round {round}: {body}"
    );
    let allowed = &body["allowed_mentions"];
    assert_eq!(allowed["parse"], serde_json::json!([]), "{allowed}");
    let mut allowed_users: Vec<u64> = allowed["users"]
        .as_array()
        .expect("allowed_mentions.users")
        .iter()
        .map(|u| u.as_str().and_then(|s| s.parse().ok()).expect("a user id"))
        .collect();
    allowed_users.sort_unstable();
    assert_eq!(allowed_users, ids, "{allowed}");
}

/// Half-points as the standings write them: `2½`, `3`, `½`.
fn points(half: u32) -> String {
    match (half / 2, half % 2) {
        (0, 1) => "½".to_string(),
        (p, 1) => format!("{p}½"),
        (p, _) => p.to_string(),
    }
}

/// Quarter-points as the standings write Sonneborn–Berger: `4½`, `3¼`, `¾`.
fn quarters(q: u32) -> String {
    let fraction = ["", "¼", "½", "¾"][(q % 4) as usize];
    match q / 4 {
        0 if !fraction.is_empty() => fraction.to_string(),
        whole => format!("{whole}{fraction}"),
    }
}

/// "point" or "points" after half-points `half`.
fn unit(half: u32) -> &'static str {
    if matches!(half, 1 | 2) {
        "point"
    } else {
        "points"
    }
}

/// The final standings the results imply, best first, as lines of the final post; and the
/// winners. No byes or forfeits (six players, every game played), so the plain definitions
/// apply: Buchholz the sum of the opponents' points, median Buchholz without the best and the
/// worst of them, Sonneborn–Berger the opponents' points weighted by the score against them;
/// equal on everything, the earlier entry first, sharing the rank.
fn expected_standings(results: &[Played]) -> (Vec<String>, Vec<usize>) {
    let n = PEOPLE.len();
    let mut score = vec![0u32; n];
    let mut games: Vec<Vec<(usize, u32)>> = vec![Vec::new(); n];
    for &(w, b, white_score) in results {
        score[w] += white_score;
        score[b] += 2 - white_score;
        games[w].push((b, white_score));
        games[b].push((w, 2 - white_score));
    }
    let keys: Vec<[u32; 4]> = (0..n)
        .map(|p| {
            assert_eq!(
                games[p].len(),
                ROUNDS as usize,
                "{} played every round",
                PEOPLE[p]
            );
            let mut opponents: Vec<u32> = games[p].iter().map(|&(o, _)| score[o]).collect();
            opponents.sort_unstable();
            let buchholz: u32 = opponents.iter().sum();
            let median = buchholz - opponents[0] - opponents[opponents.len() - 1];
            let sb: u32 = games[p].iter().map(|&(o, s)| score[o] * s).sum();
            [score[p], buchholz, median, sb]
        })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| keys[b].cmp(&keys[a]).then(a.cmp(&b)));
    let lines = order
        .iter()
        .map(|&p| {
            let rank = 1 + keys.iter().filter(|k| **k > keys[p]).count();
            let [pts, bh, mbh, sb] = keys[p];
            format!(
                "{rank}. {} — {} {} (Buchholz {}, median Buchholz {}, Sonneborn–Berger {})",
                PEOPLE[p],
                points(pts),
                unit(pts),
                points(bh),
                points(mbh),
                quarters(sb)
            )
        })
        .collect();
    let best = keys.iter().max().copied();
    let winners = (0..n).filter(|&p| Some(keys[p]) == best).collect();
    (lines, winners)
}

/// The crosstable picture is a picture of something: a PNG of a plausible size for six rows
/// and three rounds, not one flat colour.
fn check_picture(png: &[u8]) {
    let img = image::load_from_memory(png)
        .expect("the standings picture is a PNG")
        .to_rgba8();
    let (w, h) = img.dimensions();
    assert!((300..=4000).contains(&w), "width {w}");
    assert!((120..=4000).contains(&h), "height {h}");
    let background = *img.get_pixel(0, 0);
    let drawn = img.pixels().filter(|p| **p != background).count();
    assert!(
        drawn * 50 > (w * h) as usize,
        "only {drawn} of {} pixels differ from the background",
        w * h
    );
    let colours: HashSet<[u8; 4]> = img.pixels().map(|p| p.0).collect();
    assert!(colours.len() >= 3, "{} colours", colours.len());
}

/// Kills the bot process and waits until the stand-in has seen it go.
async fn kill(standin: &StandIn, mut bot: BotProcess) {
    bot.kill();
    drop(bot);
    standin.wait_disconnected().await;
}

/// While the bot is down, the game in `thread` waits since more than a day (its time per
/// move): its last move is moved back in the store, as if the bot had been down that long.
async fn a_day_passes(db: &Path, thread: u64) {
    let store = open_store(db).await;
    let mut game = store
        .active_game(thread)
        .expect("the store reads")
        .expect("the game waiting for its move");
    assert_eq!(
        game.ply(),
        PLIES,
        "the game stopped where the test stopped it"
    );
    assert_eq!(game.move_time_ms, DAY_MS, "days:1");
    game.last_move_at_ms -= DAY_MS + 60_000;
    store
        .update_game(thread, game.ply(), &game)
        .await
        .expect("the game's clock moves back");
    drop(store);
    wait_store_released(db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_three_round_swiss_is_played_by_move_through_two_restarts_and_a_loss_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let standin = StandIn::start_with(Config {
        wait: Duration::from_secs(30),
        ..Config::default()
    })
    .await;
    let mut bot = BotProcess::start(&standin, &db).await;
    let channel = Place::guild(GUILD, snowflake());
    standin.allow_threads(channel.channel);
    let club = Club {
        standin,
        people: PEOPLE.iter().map(|n| TestUser::random(n)).collect(),
        channel,
    };
    let ana = 0;

    // Entries, by slash commands.
    club.tournament(
        ana,
        "create",
        vec![
            opt_str("name", TOURNAMENT),
            opt_int("rounds", i64::from(ROUNDS)),
            opt_int("days", 1),
        ],
        "created the tournament",
    )
    .await;
    for p in 0..PEOPLE.len() {
        club.tournament(p, "join", vec![], "joined").await;
    }
    let start = club.tournament(ana, "start", vec![], &round_title(1)).await;
    let mut announcements = vec![start];
    let mut results: Vec<Played> = Vec::new();

    // Round 1: every game played, the weaker entry (the later one) resigning. Each game's
    // thread is held as it closes — after its result is stored and shown, before the bot
    // looks at the round — and the bot is killed once all three are: only the restarted
    // process's catch-up can see that round 1 is over.
    let mut tables = club.tables(1).await;
    check_announcement(&club, 1, &announcements[0], &tables, Some(ana));
    club.play(&mut tables).await;
    let held = club.standin.inject(
        FaultRoute::ThreadEdit,
        FaultAction::Delay(Duration::from_secs(60)),
        3,
    );
    for t in &tables {
        results.push(club.resign(t, t.white.max(t.black)).await);
    }
    for _ in 0..600 {
        if club.standin.fault_hits(held) == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        club.standin.fault_hits(held),
        3,
        "each thread closing is held"
    );
    kill(&club.standin, bot).await;
    assert!(
        !club
            .standin
            .log()
            .iter()
            .any(|r| text(r).contains(&round_title(2))),
        "round 2 waits for the restart"
    );
    bot = BotProcess::start(&club.standin, &db).await;

    // Round 2, paired by the restarted process. ana's game is resigned by her opponent; of
    // the other two, one is drawn and in the other the player to move never moves again.
    announcements.push(club.announced(2).await);
    let mut tables = club.tables(2).await;
    check_announcement(&club, 2, &announcements[1], &tables, None);
    club.play(&mut tables).await;
    let (with_ana, others): (Vec<&Table>, Vec<&Table>) = tables.iter().partition(|t| t.has(ana));
    let t = with_ana[0];
    results.push(club.resign(t, t.opponent(ana)).await);
    results.push(club.agree_draw(others[0]).await);
    for t in [with_ana[0], others[0]] {
        club.standin.wait_thread_archived(t.thread.channel).await;
    }
    let timed_out = others[1];
    let too_late = timed_out.to_move();
    kill(&club.standin, bot).await;
    a_day_passes(&db, timed_out.thread.channel).await;
    let _bot = BotProcess::start(&club.standin, &db).await;

    // The restarted sweeper ends the game on time, which ends round 2.
    let lost = club.standin.channel_post(timed_out.thread.channel).await;
    let says = format!("{} ran out of time", PEOPLE[too_late]);
    assert!(text(&lost).contains(&says), "{}", lost.summary());
    results.push((
        timed_out.white,
        timed_out.black,
        if too_late == timed_out.white { 0 } else { 2 },
    ));

    // Round 3: the weaker entry resigns every game.
    announcements.push(club.announced(3).await);
    let mut tables = club.tables(3).await;
    check_announcement(&club, 3, &announcements[2], &tables, None);
    club.play(&mut tables).await;
    for t in &tables {
        results.push(club.resign(t, t.white.max(t.black)).await);
    }

    // The final standings: the winner named and notified, the crosstable attached with the
    // winner in its alt text, every number what the results imply.
    let channel_id = club.channel.channel;
    let finals = club
        .standin
        .next_request(|r| bot_post_in(channel_id)(r) && text(r).contains("final standings"))
        .await;
    let said = text(&finals);
    let (lines, winners) = expected_standings(&results);
    assert!(
        said.contains(&lines.join("\n")),
        "expected\n{}\nin\n{said}",
        lines.join("\n")
    );
    let names: Vec<&str> = winners.iter().map(|&w| PEOPLE[w]).collect();
    let headline = match names.as_slice() {
        [one] => format!("The winner is {one}."),
        many => format!("Shared first place for {}.", many.join(", ")),
    };
    assert!(said.contains(&headline), "{headline:?} in {said}");
    let winner_ids: Vec<u64> = winners.iter().map(|&w| club.people[w].id).collect();
    assert_eq!(
        mentioned(finals.content()),
        winner_ids,
        "the winners are notified, nobody else"
    );
    let picture = finals
        .file("board.png")
        .unwrap_or_else(|| panic!("no picture in {}", finals.summary()));
    check_picture(&picture.bytes);
    let posted = club
        .standin
        .message(finals.message_id().expect("the final post's id"))
        .expect("the stand-in holds the final post");
    let alt = posted["attachments"][0]["description"]
        .as_str()
        .unwrap_or_default();
    for name in &names {
        assert!(alt.contains(name), "the alt text names {name}: {alt:?}");
    }

    // Each round was paired once and announced once, nobody met twice, and every game had
    // its own thread: nine in all, none opened twice.
    let said_in_channel: Vec<String> = club
        .standin
        .messages_in(channel_id)
        .iter()
        .map(text_of)
        .collect();
    for round in 1..=ROUNDS + 1 {
        let times = said_in_channel
            .iter()
            .filter(|t| t.contains(&round_title(round)))
            .count();
        let expected = usize::from(round <= ROUNDS);
        assert_eq!(times, expected, "round {round} announced {times} times");
    }
    let mut met = HashSet::new();
    for a in &announcements {
        for (w, b) in pairings_of(&text(a)) {
            assert!(
                met.insert((w.min(b), w.max(b))),
                "{} and {} met twice",
                PEOPLE[w],
                PEOPLE[b]
            );
        }
    }
    assert_eq!(met.len(), 9);
    assert_eq!(club.standin.threads_in(channel_id).len(), 9);
    club.standin.assert_no_refusals();
}
