//! The records that explain a line's variance: stock typed in by hand, the audit reads between
//! the collections (held, reset, another board, coins filled by hand) and cash sales that
//! arrived after the collection was booked.

use super::super::ReportsService;
use super::evidence::{Evidence, Interval};
use super::{Explanation, ExplanationKind};
use crate::auth::Principal;
use crate::events::{AuditRead, AuditState, Encashment};
use crate::fleet::SalesSource;
use crate::machines::RefillListParams;
use crate::reports::model::{read_near, READ_WINDOW_MINUTES};
use crate::AppResult;
use chrono::{DateTime, Duration, Utc};
use std::collections::BTreeSet;
use vendfleet_domain::audit::Flag;
use vendfleet_domain::events::{Payment, VendClass};

impl ReportsService {
    /// The records between two collections of a machine that explain a variance.
    pub(super) async fn explanations(
        &self,
        p: &Principal,
        (prev, row): (&Encashment, &Encashment),
        span: Interval,
        source: SalesSource,
        evidence: &mut Evidence,
    ) -> AppResult<Vec<Explanation>> {
        let within = |at: DateTime<Utc>| span.holds(at);
        let mut out = Vec::new();
        // Stock typed in by hand.
        let (from, to) = span.days();
        let (entries, _) = self
            .machines
            .refill_entries(
                p,
                &RefillListParams {
                    machine: Some(row.stamp.machine_id.clone()),
                    from: Some(from.to_string()),
                    to: Some(to.to_string()),
                    ..RefillListParams::default()
                },
            )
            .await?;
        let mut manual: Vec<_> = entries
            .into_iter()
            .filter(|e| e.source == "manual" && within(e.at))
            .collect();
        manual.sort_by(|a, b| a.at.cmp(&b.at).then_with(|| a.id.cmp(&b.id)));
        if let Some(first) = manual.first() {
            out.push(Explanation {
                kind: ExplanationKind::ManualStockEntry,
                at: first.at,
                amount_minor: None,
                units: Some(manual.iter().map(|e| e.added - e.removed).sum()),
                refs: manual.iter().map(|e| e.id.clone()).collect(),
            });
        }
        // The audit reads: held, resets and board changes (audit machines), tube refills.
        let reads = evidence.reads(self, &row.stamp.machine_id).await?;
        if source == SalesSource::Audit {
            let window = Duration::minutes(READ_WINDOW_MINUTES);
            // A held read's sales are in a later counted read's difference; only one that no
            // counted read follows up to the collection's read leaves them out.
            let counted_after = |r: &AuditRead| {
                reads.iter().any(|b| {
                    b.order() > r.order()
                        && b.at <= span.to.0.max(row.at + window)
                        && b.is_baseline()
                        && !b.diff.as_ref().is_some_and(|d| {
                            d.findings
                                .iter()
                                .any(|f| matches!(f.flag, Flag::MeterReset | Flag::BoardChange))
                        })
                })
            };
            for r in reads.iter().filter(|r| within(r.at)) {
                let flags: BTreeSet<Flag> = r
                    .diff
                    .iter()
                    .flat_map(|d| d.findings.iter().map(|f| f.flag))
                    .collect();
                let cited = |kind, amount_minor| Explanation {
                    kind,
                    at: r.at,
                    amount_minor,
                    units: None,
                    refs: vec![r.id.clone()],
                };
                let left_out = matches!(r.state, AuditState::Held | AuditState::Superseded);
                if left_out && !counted_after(r) {
                    let cash = r.diff.as_ref().map(|d| d.total().cash_minor);
                    out.push(cited(
                        ExplanationKind::HeldRead,
                        cash.and_then(|c| i64::try_from(c).ok()),
                    ));
                }
                if flags.contains(&Flag::MeterReset) || flags.contains(&Flag::CounterReset) {
                    out.push(cited(ExplanationKind::CounterReset, None));
                }
                if flags.contains(&Flag::BoardChange) {
                    out.push(cited(ExplanationKind::BoardChange, None));
                }
            }
        }
        if let (Some(a), Some(b)) = (read_near(reads, prev.at), read_near(reads, row.at)) {
            let filled = |r: &AuditRead| {
                r.audit
                    .manual_fill
                    .as_ref()
                    .and_then(|m| m.value_since_init_minor)
            };
            if let (Some(x), Some(y)) = (filled(a), filled(b)) {
                // The coins the collections themselves put in between the two reads are in
                // their figures already.
                let reported: i64 = [prev, row]
                    .iter()
                    .filter(|c| a.at < c.at && c.at <= b.at)
                    .map(|c| c.refilled_coins_minor)
                    .sum();
                let rise = i64::try_from(y)
                    .ok()
                    .zip(i64::try_from(x).ok())
                    .map(|(y, x)| y - x - reported);
                if let Some(rise) = rise.filter(|r| *r > 0) {
                    out.push(Explanation {
                        kind: ExplanationKind::TubeRefill,
                        at: b.at,
                        amount_minor: Some(rise),
                        units: None,
                        refs: vec![a.id.clone(), b.id.clone()],
                    });
                }
            }
        }
        // Cash sales that arrived after the collection was booked.
        if let Some(late) = self.late_cash_sales(row, span).await? {
            out.push(late);
        }
        Ok(out)
    }

    /// The cash sales between two collections whose events were received after the later
    /// collection's.
    async fn late_cash_sales(
        &self,
        row: &Encashment,
        span: Interval,
    ) -> AppResult<Option<Explanation>> {
        let booked = self
            .sales
            .receipts(&row.stamp.machine_id, std::slice::from_ref(&row.id))
            .await?;
        let Some(booked) = booked.get(&row.id).map(|r| r.received_at) else {
            return Ok(None);
        };
        let (from, to) = span.days();
        let vends: Vec<_> = self
            .sales
            .ledger(&row.stamp.machine_id, from, to)
            .await?
            .into_iter()
            .filter(|v| {
                v.class == VendClass::Sale && v.payment == Payment::Cash && span.holds(v.at)
            })
            .collect();
        let ids: Vec<String> = vends
            .iter()
            .map(|v| v.event_id.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let received = self.sales.receipts(&row.stamp.machine_id, &ids).await?;
        let late: Vec<_> = vends
            .iter()
            .filter(|v| {
                received
                    .get(&v.event_id)
                    .is_some_and(|r| r.received_at > booked)
            })
            .collect();
        let Some(first) = late.iter().map(|v| v.at).min() else {
            return Ok(None);
        };
        let refs: BTreeSet<String> = late.iter().map(|v| v.event_id.clone()).collect();
        Ok(Some(Explanation {
            kind: ExplanationKind::LateEvent,
            at: first,
            amount_minor: Some(late.iter().map(|v| v.revenue_minor).sum()),
            units: Some(late.iter().map(|v| i64::from(v.quantity)).sum()),
            refs: refs.into_iter().collect(),
        }))
    }
}
