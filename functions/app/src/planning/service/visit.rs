//! The visit of a route's stop (`fill-from-route`, idempotent by its request id).

use super::routes::*;
use super::*;
use crate::ports::{Condition, StoreError, Write};
use vendfleet_domain::events::{CashCollection, EventKind, MachineEvent};
use vendfleet_domain::planning::RouteStatus;
use vendfleet_domain::report::Choice;

/// Retries of a visit booking that lost a race on the stock.
const BOOKING_RETRIES: usize = 3;

/// One selection of a visit.
#[derive(Debug, Clone, Default)]
pub struct VisitLineInput {
    pub selection: String,
    pub found: i64,
    pub filled: i64,
    pub removed: i64,
    pub removed_reason: Option<String>,
    pub expiry_date: Option<String>,
}

/// The fill-from-route form.
#[derive(Debug, Clone, Default)]
pub struct FillFromRouteInput {
    pub route_id: String,
    pub machine_id: String,
    pub request_id: String,
    pub lines: Vec<VisitLineInput>,
    pub cash_bag: Option<String>,
    pub collected_minor: Option<i64>,
    /// The refiller's note.
    pub note: Option<String>,
    /// `no_access`, `out_of_order`, `site_closed` or `other`: the stop could not be serviced.
    pub not_serviced: Option<String>,
}

/// What a booking answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Booked {
    pub route: PlannedRoute,
    pub stop: RouteStop,
    /// True when this request had been booked before and nothing was written now.
    pub replayed: bool,
}

impl PlanningService {
    /// Books a visit of a route's stop: the stock found, filled and removed per selection and
    /// the cash bag. The selections' stock and the refill log (source `route`) change in the same
    /// step as the stop and the route; the same `request_id` again answers the first booking.
    pub async fn fill_from_route(
        &self,
        p: &Principal,
        input: &FillFromRouteInput,
    ) -> AppResult<Booked> {
        p.require(Permission::MachinesEditQuantityExpiry)?;
        let mut errors = FieldErrors::new();
        let request_id = input.request_id.trim().to_string();
        if request_id.is_empty() || request_id.len() > 100 {
            errors.add("request_id", "Give a request id of 1 to 100 characters.");
        }
        let not_serviced = match input.not_serviced.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(k) => {
                let r = NotServiced::from_key(k);
                if r.is_none() {
                    errors.add(
                        "not_serviced",
                        "Choose one of: no_access, out_of_order, site_closed, other.",
                    );
                }
                r
            }
        };
        let cash_bag = input
            .cash_bag
            .as_deref()
            .map(str::trim)
            .filter(|b| !b.is_empty())
            .map(String::from);
        if not_serviced.is_some()
            || input
                .not_serviced
                .as_deref()
                .is_some_and(|k| !k.trim().is_empty())
        {
            if !input.lines.is_empty() {
                errors.add(
                    "lines",
                    "A stop that could not be serviced has no selections.",
                );
            }
            if input.collected_minor.is_some() || cash_bag.is_some() {
                errors.add(
                    "collected_minor",
                    "A stop that could not be serviced has no cash.",
                );
            }
        } else if input.lines.is_empty() && input.collected_minor.is_none() {
            errors.add(
                "lines",
                "Give at least one selection or the cash collected.",
            );
        }
        if input.collected_minor.is_some_and(|c| c < 0) {
            errors.add("collected_minor", "Must be 0 or more.");
        }
        if cash_bag.as_ref().is_some_and(|b| b.chars().count() > 60) {
            errors.add("cash_bag", "At most 60 characters.");
        }
        let note = input
            .note
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(String::from);
        if note.as_ref().is_some_and(|n| n.chars().count() > 500) {
            errors.add("note", "At most 500 characters.");
        }
        errors.into_result()?;
        if input.collected_minor.is_some() {
            p.require(Permission::MachinesCollectCash)?;
        }
        let booking = Booking {
            request_id: &request_id,
            cash_bag,
            note,
            not_serviced,
        };
        for _ in 0..BOOKING_RETRIES {
            match self.try_book(p, input, &booking).await {
                Err(AppError::Conflict { message, .. }) if message == RACE => continue,
                other => return other,
            }
        }
        Err(AppError::conflict(
            "The machine's stock kept changing: try again.",
        ))
    }

    async fn try_book(
        &self,
        p: &Principal,
        input: &FillFromRouteInput,
        booking: &Booking<'_>,
    ) -> AppResult<Booked> {
        let request_id = booking.request_id;
        // The route must be one the user sees and theirs (or they edit routes), the machine in
        // their scope.
        let route = self.route_for(p, input.route_id.trim()).await?;
        if route.employee_id != p.user.id && !p.can(Permission::PlannedRoutesEdit) {
            return Err(not_found());
        }
        let machine = self
            .machines
            .machine_for(p, input.machine_id.trim())
            .await
            .map_err(|_| AppError::NotFound("Machine not found".into()))?;
        let Some(summary) = route.stops.iter().find(|s| s.stop.machine_id == machine.id) else {
            return Err(AppError::NotFound("Machine not on this route".into()));
        };
        let stop_item = self
            .store
            .get(&RouteStop::key(&route.id, &machine.id))
            .await?
            .ok_or_else(|| AppError::NotFound("Machine not on this route".into()))?;
        let stop = RouteStop::from_item(&stop_item)?;
        if let Some(v) = &stop.visit {
            if v.request_id == request_id {
                // A replay books the collection again: a no-op once it is stored, and the
                // repair when the first attempt stopped between the visit and the collection.
                self.book_collection(&route, &machine, v).await?;
                return Ok(Booked {
                    route,
                    stop,
                    replayed: true,
                });
            }
            return Err(AppError::conflict("This stop was visited already."));
        }
        let status = route.status_at(self.calendar.now());
        if status.is_final() {
            return Err(final_conflict(status));
        }
        debug_assert!(summary.visited_at.is_none());
        // The selections as they are now.
        let mut sels: HashMap<String, Selection> = self
            .machines
            .selections_of(std::slice::from_ref(&machine.id))
            .await?
            .remove(&machine.id)
            .unwrap_or_default()
            .into_iter()
            .map(|s| (s.selection.clone(), s))
            .collect();
        let products = self.products.products().all_shared().await?;
        let names: HashMap<&str, &str> = products
            .iter()
            .map(|p| (p.id.as_str(), p.name.as_str()))
            .collect();
        let mut errors = FieldErrors::new();
        let mut lines = Vec::new();
        let mut seen = BTreeSet::new();
        let mut changed: Vec<(Selection, Selection, VisitLine)> = Vec::new();
        for (i, l) in input.lines.iter().enumerate() {
            let f = |k: &str| format!("lines.{i}.{k}");
            let code = l.selection.trim();
            let Some(sel) = sels.remove(code) else {
                if seen.contains(code) {
                    errors.add(f("selection"), "This selection is given twice.");
                } else {
                    errors.add(
                        f("selection"),
                        format!("No selection {code} on this machine."),
                    );
                }
                continue;
            };
            seen.insert(code.to_string());
            for (k, v) in [
                ("found", l.found),
                ("filled", l.filled),
                ("removed", l.removed),
            ] {
                if !(0..=100_000).contains(&v) {
                    errors.add(f(k), "Must be between 0 and 100000.");
                }
            }
            let reason = match l.removed_reason.as_deref().map(str::trim) {
                None | Some("") => None,
                Some(k) => match RemovalReason::from_key(k) {
                    Some(r) => Some(r),
                    None => {
                        errors.add(
                            f("removed_reason"),
                            "Choose one of: expired, damaged, other.",
                        );
                        None
                    }
                },
            };
            if l.removed > 0 && reason.is_none() && !errors.0.contains_key(&f("removed_reason")) {
                errors.add(f("removed_reason"), "Say why stock was removed.");
            }
            let after = l.found + l.filled - l.removed;
            if after < 0 {
                errors.add(f("removed"), "More removed than found and filled.");
            } else if after > sel.max {
                errors.add(
                    f("filled"),
                    format!("The selection holds {} at most.", sel.max),
                );
            }
            let expiry = match l.expiry_date.as_deref().map(str::trim) {
                None | Some("") => sel.expiry_date,
                Some(d) => parse_date(d).or_else(|| {
                    errors.add(f("expiry_date"), "Enter a real date as YYYY-MM-DD.");
                    None
                }),
            };
            let line = VisitLine {
                selection: sel.selection.clone(),
                product_id: sel.product_id.clone(),
                product_name: names
                    .get(sel.product_id.as_str())
                    .map(|n| n.to_string())
                    .unwrap_or_default(),
                found: l.found,
                filled: l.filled,
                removed: l.removed,
                removed_reason: reason,
                after,
            };
            let mut next = sel.clone();
            next.current = after;
            next.expiry_date = expiry;
            changed.push((sel, next, line.clone()));
            lines.push(line);
        }
        let writes_needed = 2 + 2 * changed.len();
        if writes_needed > crate::records::MAX_CHANGE_WRITES {
            errors.add(
                "lines",
                format!(
                    "At most {} selections in one visit.",
                    (crate::records::MAX_CHANGE_WRITES - 2) / 2
                ),
            );
        }
        errors.into_result()?;
        let now = self.calendar.now();
        let visit = Visit {
            request_id: request_id.to_string(),
            at: now,
            employee_id: p.user.id.clone(),
            employee_name: p.user.name.clone(),
            lines,
            cash_bag: booking.cash_bag.clone(),
            collected_minor: input.collected_minor,
            note: booking.note.clone(),
            not_serviced: booking.not_serviced,
        };
        let mut writes = Vec::new();
        for (before, mut next, line) in changed {
            if before.current != next.current || before.expiry_date != next.expiry_date {
                writes.push(next.stock_write(before.version, now)?);
            }
            // The log line: what the visit put in and took out. The count itself (found against
            // the stock the system expected) is kept in the visit.
            if line.filled != 0 || line.removed != 0 {
                let entry = self
                    .machines
                    .refill_entry(
                        p,
                        &machine,
                        &next,
                        &line.product_name,
                        crate::machines::StockChange {
                            source: "route",
                            added: line.filled,
                            removed: line.removed,
                        },
                    )
                    .await?;
                writes.push(Write::Put {
                    item: entry.to_item()?,
                    condition: None,
                });
            }
        }
        let mut next_stop = stop.clone();
        next_stop.visit = Some(visit);
        next_stop.version = stop.version + 1;
        writes.push(Write::Put {
            item: next_stop.to_item()?,
            condition: Some(Condition::VersionIs(stop.version)),
        });
        let mut next_route = route.clone();
        for s in next_route.stops.iter_mut() {
            if s.stop.machine_id == machine.id {
                s.visited_at = Some(now);
                s.not_serviced = booking.not_serviced;
            }
        }
        next_route.status = if next_route.visited() == next_route.stops.len() {
            RouteStatus::Done
        } else {
            RouteStatus::InProgress
        };
        next_route.updated_at = now;
        next_route.version = route.version + 1;
        writes.extend(Records::<PlannedRoute>::replace_writes(
            &route,
            &next_route,
        )?);
        match self.store.transact(writes).await {
            Ok(()) => {
                if let Some(v) = &next_stop.visit {
                    self.book_collection(&next_route, &machine, v).await?;
                }
                Ok(Booked {
                    route: next_route,
                    stop: next_stop,
                    replayed: false,
                })
            }
            // Someone else changed the stock, the stop or the route meanwhile: read again.
            Err(StoreError::ConditionFailed { .. }) => Err(AppError::conflict(RACE)),
            Err(e) => Err(e.into()),
        }
    }

    /// The machine's cash collection of a visit that collected cash: one event through the
    /// machines' intake, its id the route's (a stop is visited once), so booking it again —
    /// a replay of the visit — changes nothing. The counted cash stands as the cash box; the
    /// phone knows no tube or stacker figures.
    async fn book_collection(
        &self,
        route: &PlannedRoute,
        machine: &Machine,
        visit: &Visit,
    ) -> AppResult<()> {
        let Some(collected) = visit.collected_minor else {
            return Ok(());
        };
        let event = MachineEvent {
            id: format!("visit-{}", route.id),
            at: visit.at.fixed_offset(),
            kind: EventKind::CashCollection(CashCollection {
                bag_no: visit.cash_bag.clone().unwrap_or_default(),
                employee_id: Some(visit.employee_id.clone()),
                cash_box_minor: collected,
                bill_stacker_minor: 0,
                tubes_minor: 0,
                ejected_minor: 0,
                refilled_coins_minor: 0,
                collected_minor: collected,
            }),
        };
        self.events
            .apply(&machine.id, std::slice::from_ref(&event))
            .await?;
        Ok(())
    }
}

/// A booking's checked parts.
struct Booking<'a> {
    request_id: &'a str,
    cash_bag: Option<String>,
    note: Option<String>,
    not_serviced: Option<NotServiced>,
}

const RACE: &str = "stock changed meanwhile";
