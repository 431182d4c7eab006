//! Discord's gateway events: a (re)connection catches up on the work owed, the shards'
//! stages feed `/readyz`, deleted channels, threads and servers end their games, and
//! interactions are taken once.

use super::*;

#[serenity::async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        let (id, count) = ready.shard.map_or((0, 1), |s| (s.id.0, s.total));
        tracing::info!("connected as {}, shard {id} of {count}", ready.user.name);
        self.health.shard(id, true);
        self.shard_count.store(count, Ordering::Relaxed);
        // Once per bot: the process that runs shard 0 registers the commands.
        if id == 0 {
            self.register_commands(&ctx.http).await;
        }
        // A new session: this process may have just started, so catch up on everything of
        // this shard.
        self.catch_up(&ctx.http, Some((id, count)), true);
    }

    async fn resume(&self, ctx: Context, _: ResumedEvent) {
        // The same process: its deliveries are still under way, only moves may be owed.
        let count = self.shard_count.load(Ordering::Relaxed);
        self.health.shard(ctx.shard_id.0, true);
        self.catch_up(&ctx.http, Some((ctx.shard_id.0, count)), false);
    }

    async fn shard_stage_update(&self, _: Context, update: ShardStageUpdateEvent) {
        let connected = update.new == ConnectionStage::Connected;
        self.health.shard(update.shard_id.0, connected);
    }

    async fn channel_delete(&self, _: Context, channel: GuildChannel, _: Option<Vec<Message>>) {
        self.app.channel_gone(channel.id.get()).await;
    }

    async fn thread_delete(
        &self,
        _: Context,
        thread: PartialGuildChannel,
        _: Option<GuildChannel>,
    ) {
        self.app.channel_gone(thread.id.get()).await;
    }

    async fn guild_delete(&self, _: Context, incomplete: UnavailableGuild, _: Option<Guild>) {
        // An outage makes a server unavailable for a while; only a removal ends its games.
        if !incomplete.unavailable {
            self.app.guild_gone(incomplete.id.get()).await;
        }
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        self.handle(&ctx.http, interaction).await;
    }
}
