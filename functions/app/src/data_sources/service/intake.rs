//! A feed's message taken into the intake (booked exactly once, by the receipts of its
//! events), or kept in the inbox with why; the inbox, and its messages taken again.

use super::DataSourcesService;
use crate::data_sources::model::{Health, Incoming, KeptMessage, KeptReason, Taken};
use crate::error::AppResult;
use crate::machines::MachineContext;
use crate::ports::{query_all, Condition, Index, Item, Query, StoreError};
use std::collections::{HashMap, HashSet};
use vendfleet_domain::events::MachineEvent;
use vendfleet_domain::nayax::{local_instant, Message, Transaction, TransactionKind};

/// Why a message is not booked now, with what it names.
struct Keep {
    reason: KeptReason,
    detail: String,
    nayax_machine_id: Option<String>,
    product_code: Option<String>,
}

impl Keep {
    fn new(reason: KeptReason, detail: impl Into<String>) -> Keep {
        Keep {
            reason,
            detail: detail.into(),
            nayax_machine_id: None,
            product_code: None,
        }
    }
}

impl DataSourcesService {
    /// Takes one message of a feed: its events are booked through the intake (a message
    /// delivered again books nothing twice), a cancelled or declined transaction is ignored,
    /// anything else is kept in the inbox with its reason. `Err` only when the store fails: the
    /// message is then left on its queue, to be delivered again.
    pub async fn take(&self, m: Incoming<'_>) -> AppResult<Taken> {
        let taken = match self.book(m).await {
            Ok(taken) => taken,
            Err(e) => {
                self.failed(m.source_id, &e.to_string()).await?;
                return Err(e);
            }
        };
        let counter = match taken {
            Taken::Booked { .. } => "booked",
            Taken::Ignored => "ignored",
            Taken::Kept(_) => "kept",
        };
        self.count(m.source_id, counter).await?;
        Ok(taken)
    }

    async fn book(&self, m: Incoming<'_>) -> AppResult<Taken> {
        match self.events_of(m).await? {
            Ok(None) => {
                self.forget(m.message_id).await?;
                Ok(Taken::Ignored)
            }
            Ok(Some((machine_id, events))) => {
                let applied = self.events.apply(&machine_id, &events).await?;
                self.forget(m.message_id).await?;
                Ok(Taken::Booked {
                    stored: applied.stored,
                    already: applied.already,
                })
            }
            Err(keep) => {
                let reason = keep.reason;
                self.keep(m, keep).await?;
                Ok(Taken::Kept(reason))
            }
        }
    }

    /// The machine and events a message books (`None`: a transaction that never counts), or
    /// why it is kept.
    async fn events_of(
        &self,
        m: Incoming<'_>,
    ) -> AppResult<Result<Option<(String, Vec<MachineEvent>)>, Keep>> {
        let message = match Message::read(m.feed, m.body) {
            Ok(message) => message,
            Err(e) => return Ok(Err(Keep::new(KeptReason::Unreadable, e.to_string()))),
        };
        let nayax = message.machine().to_string();
        let Some(ctx) = self.machine_of(&nayax).await? else {
            let mut keep = Keep::new(
                KeptReason::UnknownMachine,
                format!("No active machine has the Nayax machine id {nayax}."),
            );
            keep.nayax_machine_id = Some(nayax);
            return Ok(Err(keep));
        };
        let events = match &message {
            Message::Transaction(t) => match t.kind {
                TransactionKind::Declined | TransactionKind::Cancelled => return Ok(Ok(None)),
                TransactionKind::Void | TransactionKind::Refund => Err(Keep::new(
                    KeptReason::Reversal,
                    format!("{:?} of transaction {}.", t.kind, t.transaction_id),
                )),
                TransactionKind::Sale => self.sale(t, &ctx).await?,
            },
            Message::Alert(a) => Ok(vec![a.event(m.message_id, m.sent_at)]),
            Message::Audit(a) => match vendfleet_domain::dex::parse(&a.content) {
                Ok(_) => Ok(vec![a.event(m.sent_at)]),
                Err(e) => Err(Keep::new(
                    KeptReason::Unreadable,
                    format!("Not a readable audit file: {e}."),
                )),
            },
        };
        Ok(events
            .map(|events| Some((ctx.machine.id.clone(), events)))
            .map_err(|mut keep| {
                keep.nayax_machine_id = Some(nayax);
                keep
            }))
    }

    /// A sale's vends: each line's product by its catalogue number (our SKU), else the
    /// planogram's at its selection; its time in the machine's zone.
    async fn sale(
        &self,
        t: &Transaction,
        ctx: &MachineContext,
    ) -> AppResult<Result<Vec<MachineEvent>, Keep>> {
        if let Some(currency) = t.currency.as_deref() {
            if !currency.eq_ignore_ascii_case(&ctx.machine.currency) {
                return Ok(Err(Keep::new(
                    KeptReason::Unreadable,
                    format!(
                        "Currency {currency}, the machine sells in {}.",
                        ctx.machine.currency
                    ),
                )));
            }
        }
        let named: Vec<&str> = t
            .lines
            .iter()
            .filter_map(|l| l.catalog_number.as_deref())
            .collect();
        let skus = if named.is_empty() {
            HashMap::new()
        } else {
            self.skus().await?
        };
        let planned: HashSet<&str> = ctx
            .selections
            .iter()
            .map(|s| s.selection.as_str())
            .collect();
        let mut products = Vec::with_capacity(t.lines.len());
        for line in &t.lines {
            let product = line
                .catalog_number
                .as_ref()
                .and_then(|c| skus.get(c))
                .cloned();
            let planned = line
                .selection
                .as_deref()
                .is_some_and(|s| planned.contains(s));
            if product.is_none() && !planned {
                let code = line
                    .catalog_number
                    .clone()
                    .or_else(|| line.selection.clone())
                    .or_else(|| line.name.clone())
                    .unwrap_or_default();
                let mut keep = Keep::new(
                    KeptReason::UnknownProduct,
                    format!(
                        "No product has the code {code:?} and no selection is {:?}.",
                        line.selection.as_deref().unwrap_or("")
                    ),
                );
                keep.product_code = Some(code);
                return Ok(Err(keep));
            }
            products.push(product);
        }
        let at = local_instant(t.local_time, ctx.zone, t.settled_at);
        Ok(t.vends(at, ctx.machine.decimal_places, &products)
            .map_err(|e| Keep::new(KeptReason::Unreadable, e.to_string())))
    }

    /// The active machine with this Nayax machine id, with its zone and planogram.
    async fn machine_of(&self, nayax: &str) -> AppResult<Option<MachineContext>> {
        let machines = self.machines.machines().all_shared().await?;
        let found = machines
            .iter()
            .find(|m| !m.inactive && m.nayax_machine_id.as_deref() == Some(nayax))
            .cloned();
        match found {
            Some(machine) => Ok(Some(self.machines.intake_context_of(machine).await?)),
            None => Ok(None),
        }
    }

    /// Every active product's id by its SKU.
    async fn skus(&self) -> AppResult<HashMap<String, String>> {
        let products = self.products.products().all_shared().await?;
        Ok(products
            .iter()
            .filter(|p| !p.inactive && !p.sku.is_empty())
            .map(|p| (p.sku.clone(), p.id.clone()))
            .collect())
    }

    /// Keeps a message in the inbox (again: its last sighting and count).
    async fn keep(&self, m: Incoming<'_>, keep: Keep) -> AppResult<()> {
        let now = self.calendar.now();
        let key = KeptMessage::key_of(m.message_id);
        let earlier = self.store.get(&key).await?;
        let (first_seen, times_seen, version) = match &earlier {
            Some(item) => {
                let k: KeptMessage = item.to_value()?;
                (k.first_seen, k.times_seen + 1, Some(item.version))
            }
            None => (now, 1, None),
        };
        let kept = KeptMessage {
            source_id: m.source_id.to_string(),
            feed: m.feed,
            message_id: m.message_id.to_string(),
            reason: keep.reason,
            detail: keep.detail,
            nayax_machine_id: keep.nayax_machine_id,
            product_code: keep.product_code,
            body: m.body.to_string(),
            sent_at: m.sent_at,
            first_seen,
            last_seen: now,
            times_seen,
        };
        let mut item = Item::from_value(key, &kept)?;
        if let Some(nayax) = &kept.nayax_machine_id {
            item = item.with_gsi1(KeptMessage::machine_partition(nayax), m.message_id);
        }
        let condition = match version {
            Some(v) => Condition::VersionIs(v),
            None => Condition::NotExists,
        };
        match self
            .store
            .put(item.with_version(version.unwrap_or(0) + 1), Some(condition))
            .await
        {
            // Kept meanwhile by another delivery: it is in the inbox either way.
            Ok(()) | Err(StoreError::ConditionFailed { .. }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// Removes a message from the inbox once booked (or ignored).
    async fn forget(&self, message_id: &str) -> AppResult<()> {
        self.store
            .delete(&KeptMessage::key_of(message_id), None)
            .await
            .map_err(Into::into)
    }

    /// The inbox: every kept message, the latest seen first.
    pub async fn inbox(&self) -> AppResult<Vec<KeptMessage>> {
        let q = Query::partition(Index::Primary, KeptMessage::INBOX);
        let mut kept: Vec<KeptMessage> = query_all(self.store.as_ref(), q)
            .await?
            .iter()
            .map(Item::to_value)
            .collect::<Result<_, _>>()?;
        kept.sort_by(|a, b| {
            b.last_seen
                .cmp(&a.last_seen)
                .then(a.message_id.cmp(&b.message_id))
        });
        Ok(kept)
    }

    /// Takes again the kept messages of a Nayax machine id (once a machine has it): each is
    /// booked exactly once, or kept again with its new reason.
    pub async fn retake_machine(&self, nayax_machine_id: &str) -> AppResult<Vec<Taken>> {
        let q = Query::partition(
            Index::Gsi1,
            KeptMessage::machine_partition(nayax_machine_id),
        );
        let kept: Vec<KeptMessage> = query_all(self.store.as_ref(), q)
            .await?
            .iter()
            .map(Item::to_value)
            .collect::<Result<_, _>>()?;
        self.retake(&kept).await
    }

    /// Takes kept messages again, in the order they were sent.
    pub async fn retake(&self, kept: &[KeptMessage]) -> AppResult<Vec<Taken>> {
        let mut kept: Vec<&KeptMessage> = kept.iter().collect();
        kept.sort_by_key(|k| (k.sent_at, k.message_id.clone()));
        let mut out = Vec::with_capacity(kept.len());
        for k in kept {
            let m = Incoming {
                source_id: &k.source_id,
                feed: k.feed,
                message_id: &k.message_id,
                body: &k.body,
                sent_at: k.sent_at,
            };
            out.push(self.take(m).await?);
        }
        Ok(out)
    }

    /// Counts a message of today under `counter` and notes when it came.
    async fn count(&self, source_id: &str, counter: &str) -> AppResult<()> {
        let now = self.calendar.now();
        let day = Health::day_key(source_id, self.calendar.today());
        self.store.add(&day, counter, 1).await?;
        let state = serde_json::json!({ "last_message_at": now });
        let item = Item::new(
            Health::state_key(source_id),
            state.as_object().cloned().unwrap_or_default(),
        );
        self.store.put(item, None).await?;
        Ok(())
    }

    /// Notes a failure to read or book a source's messages (the poller's, or the store's): the
    /// message stays on its queue and is delivered again.
    pub async fn failed(&self, source_id: &str, error: &str) -> AppResult<()> {
        let now = self.calendar.now();
        let day = Health::day_key(source_id, self.calendar.today());
        self.store.add(&day, "failed", 1).await?;
        let mut error: String = error.chars().take(500).collect();
        error.shrink_to_fit();
        let state = serde_json::json!({ "error": error, "at": now });
        let key = crate::ports::Key::new(Health::partition(source_id), "ERROR");
        let item = Item::new(key, state.as_object().cloned().unwrap_or_default());
        self.store.put(item, None).await?;
        Ok(())
    }

    /// A source's health now.
    pub async fn health(&self, source_id: &str) -> AppResult<Health> {
        let mut h = Health::default();
        let get = |key| async move { self.store.get(&key).await };
        if let Some(state) = get(Health::state_key(source_id)).await? {
            h.last_message_at = state
                .attrs
                .get("last_message_at")
                .and_then(|v| serde_json::from_value(v.clone()).ok());
        }
        let error_key = crate::ports::Key::new(Health::partition(source_id), "ERROR");
        if let Some(error) = get(error_key).await? {
            h.last_error = error
                .attrs
                .get("error")
                .and_then(|v| v.as_str())
                .map(String::from);
            h.last_error_at = error
                .attrs
                .get("at")
                .and_then(|v| serde_json::from_value(v.clone()).ok());
        }
        if let Some(day) = get(Health::day_key(source_id, self.calendar.today())).await? {
            let n = |name: &str| day.attrs.get(name).and_then(|v| v.as_i64()).unwrap_or(0);
            h.booked_today = n("booked");
            h.kept_today = n("kept");
            h.ignored_today = n("ignored");
            h.failed_today = n("failed");
        }
        h.oldest_unbooked = self
            .inbox()
            .await?
            .iter()
            .filter(|k| k.source_id == source_id)
            .map(|k| k.sent_at)
            .min();
        Ok(h)
    }
}
