//! Ids that carry their record's time.

/// A ULID carrying `at` (the service's clock, never the system's: lookups such as the
/// refill-visit one find a record by the day in its id, and lists read in id order), strictly
/// increasing within a millisecond so that records written at one instant keep their order.
pub fn ordered_id(at: chrono::DateTime<chrono::Utc>) -> String {
    // Not `ulid::Generator`: given an earlier instant than its last it goes on from the last, so
    // an id would carry another clock's time (tests run services on different clocks at once).
    // Instead the random part's high 40 bits count this process's ids and the low 40 are
    // random (ids of two processes in one millisecond stay distinct).
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) & ((1 << 40) - 1);
    let random = (u128::from(n) << 40) | u128::from(rand::random::<u64>() & ((1 << 40) - 1));
    let ms = u64::try_from(at.timestamp_millis()).unwrap_or(0);
    ulid::Ulid::from_parts(ms, random).to_string()
}

#[cfg(test)]
mod tests {
    use super::ordered_id;
    use chrono::TimeZone;

    #[test]
    fn ids_of_one_instant_keep_their_order_and_carry_its_time() {
        let at = chrono::Utc.with_ymd_and_hms(2026, 3, 29, 0, 30, 0).unwrap();
        let later = at + chrono::Duration::days(200);
        // Another clock's ids in between (as when tests run side by side).
        let ids: Vec<String> = (0..50)
            .map(|i| {
                if i % 7 == 0 {
                    ordered_id(later);
                }
                ordered_id(at)
            })
            .collect();
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(ids, sorted);
        for id in &ids {
            let id: ulid::Ulid = id.parse().unwrap();
            assert_eq!(chrono::DateTime::<chrono::Utc>::from(id.datetime()), at);
        }
    }
}
