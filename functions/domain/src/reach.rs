//! Who may receive what: the machines a reader reaches, the e-mail domains an operator lets
//! company data be mailed to, and how a scheduled report's recipients are split into files
//! (one per distinct reach and language), so that a file never shows a reader what they may not
//! see.

use crate::Language;
use std::collections::{BTreeMap, BTreeSet};

/// The machines a reader may see now: the whole fleet, or these machines.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reach {
    All,
    Machines(BTreeSet<String>),
}

impl Reach {
    /// Whether every machine of `other` is within this reach.
    pub fn covers(&self, other: &Reach) -> bool {
        match (self, other) {
            (Reach::All, _) => true,
            (Reach::Machines(_), Reach::All) => false,
            (Reach::Machines(mine), Reach::Machines(theirs)) => theirs.is_subset(mine),
        }
    }

    /// The machines both reaches see.
    pub fn intersect(&self, other: &Reach) -> Reach {
        match (self, other) {
            (Reach::All, r) | (r, Reach::All) => r.clone(),
            (Reach::Machines(a), Reach::Machines(b)) => {
                Reach::Machines(a.intersection(b).cloned().collect())
            }
        }
    }

    /// The machines named, or `None` for the whole fleet.
    pub fn machines(&self) -> Option<&BTreeSet<String>> {
        match self {
            Reach::All => None,
            Reach::Machines(m) => Some(m),
        }
    }
}

/// Checks one entry of the operator's mail allow-list: a domain (`example.com`), or every
/// subdomain of one (`*.example.com`). Answers it lower-cased, or why it is not one.
pub fn mail_domain(entry: &str) -> Result<String, String> {
    let d = entry.trim().to_ascii_lowercase();
    let bare = d.strip_prefix("*.").unwrap_or(&d);
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    if d.is_empty() {
        return Err("Give a domain such as example.com.".into());
    }
    if bare.len() > 253 || !bare.contains('.') || !bare.split('.').all(label_ok) {
        return Err(format!(
            "“{}” is not a domain: write example.com, or *.example.com for its subdomains.",
            entry.trim()
        ));
    }
    Ok(d)
}

/// Whether `address` may receive company data under the allow-list `domains` (entries as
/// [`mail_domain`] answers them). An empty list allows no address: reports go to users only.
pub fn mail_allowed(domains: &[String], address: &str) -> bool {
    let Some((_, domain)) = address.trim().rsplit_once('@') else {
        return false;
    };
    let domain = domain.to_ascii_lowercase();
    domains.iter().any(|entry| match entry.strip_prefix("*.") {
        Some(parent) => domain
            .strip_suffix(parent)
            .is_some_and(|head| head.ends_with('.') && head.len() > 1),
        None => domain == *entry,
    })
}

/// A recipient of a scheduled report as it stands when the report runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipient {
    /// The address the message goes to.
    pub address: String,
    /// The user it belongs to (`None`: a plain address, which carries the owner's reach).
    pub user_id: Option<String>,
    pub language: Language,
    /// What the recipient may receive: their reach, or why they get nothing.
    pub access: Result<Reach, String>,
}

/// The recipients that share one file: the owner's report cut to `reach`, in `language`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audience {
    /// The machines of the file (the owner's reach intersected with the recipients').
    pub reach: Reach,
    pub language: Language,
    /// Addresses, in the order they were given.
    pub addresses: Vec<String>,
    /// Their users, where they are users.
    pub user_ids: Vec<String>,
}

/// The split of a report's recipients: who shares which file, and who gets nothing (and why).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Split {
    pub audiences: Vec<Audience>,
    /// Address and reason.
    pub withheld: Vec<(String, String)>,
}

/// Splits recipients into one audience per distinct (reach, language): each file is the owner's
/// report cut to what its recipients may see, and never more than the owner sees.
pub fn split_audiences(owner: &Reach, recipients: Vec<Recipient>) -> Split {
    let mut groups: BTreeMap<(Reach, &'static str), Audience> = BTreeMap::new();
    let mut withheld = Vec::new();
    for r in recipients {
        let reach = match r.access {
            Ok(reach) => owner.intersect(&reach),
            Err(why) => {
                withheld.push((r.address, why));
                continue;
            }
        };
        let a = groups
            .entry((reach.clone(), r.language.code()))
            .or_insert_with(|| Audience {
                reach,
                language: r.language,
                addresses: Vec::new(),
                user_ids: Vec::new(),
            });
        if !a.addresses.contains(&r.address) {
            a.addresses.push(r.address);
        }
        if let Some(id) = r.user_id {
            if !a.user_ids.contains(&id) {
                a.user_ids.push(id);
            }
        }
    }
    Split {
        audiences: groups.into_values().collect(),
        withheld,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(ids: &[&str]) -> Reach {
        Reach::Machines(ids.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn reaches_cover_and_intersect() {
        assert!(Reach::All.covers(&m(&["a"])));
        assert!(!m(&["a"]).covers(&Reach::All));
        assert!(m(&["a", "b"]).covers(&m(&["b"])));
        assert!(!m(&["a"]).covers(&m(&["a", "b"])));
        assert!(m(&[]).covers(&m(&[])));
        assert_eq!(Reach::All.intersect(&m(&["a"])), m(&["a"]));
        assert_eq!(m(&["a", "b"]).intersect(&Reach::All), m(&["a", "b"]));
        assert_eq!(m(&["a", "b"]).intersect(&m(&["b", "c"])), m(&["b"]));
        assert_eq!(Reach::All.intersect(&Reach::All), Reach::All);
    }

    #[test]
    fn the_allow_list_names_domains_or_their_subdomains() {
        assert_eq!(mail_domain(" Example.COM ").unwrap(), "example.com");
        assert_eq!(mail_domain("*.example.com").unwrap(), "*.example.com");
        for bad in [
            "",
            "example",
            "exa mple.com",
            "-x.com",
            "a..b",
            "@example.com",
            "*.com",
        ] {
            assert!(mail_domain(bad).is_err(), "{bad}");
        }
        let list = vec!["example.com".to_string(), "*.vendfleet.eu".to_string()];
        assert!(mail_allowed(&list, "Boss@Example.com"));
        assert!(!mail_allowed(&list, "boss@example.com.evil.org"));
        assert!(
            !mail_allowed(&list, "boss@sub.example.com"),
            "exact domain only"
        );
        assert!(!mail_allowed(&list, "boss@notexample.com"));
        assert!(mail_allowed(&list, "x@paris.vendfleet.eu"));
        assert!(mail_allowed(&list, "x@a.b.vendfleet.eu"));
        assert!(!mail_allowed(&list, "x@vendfleet.eu"), "subdomains only");
        assert!(!mail_allowed(&list, "x@evilvendfleet.eu"));
        assert!(!mail_allowed(&list, "not-an-address"));
        assert!(!mail_allowed(&[], "boss@example.com"), "empty: users only");
    }

    fn user(id: &str, lang: Language, access: Result<Reach, String>) -> Recipient {
        Recipient {
            address: format!("{id}@example.com"),
            user_id: Some(id.into()),
            language: lang,
            access,
        }
    }

    #[test]
    fn recipients_share_a_file_only_with_the_same_reach_and_language() {
        let owner = m(&["m1", "m2", "m3"]);
        let split = split_audiences(
            &owner,
            vec![
                user("ann", Language::En, Ok(m(&["m1"]))),
                user("bob", Language::En, Ok(m(&["m1", "m9"]))),
                user("cid", Language::Fr, Ok(m(&["m1"]))),
                user("dan", Language::En, Ok(Reach::All)),
                user(
                    "eve",
                    Language::En,
                    Err("No access to the sales overview".into()),
                ),
                Recipient {
                    address: "boss@example.com".into(),
                    user_id: None,
                    language: Language::En,
                    access: Ok(owner.clone()),
                },
            ],
        );
        assert_eq!(
            split.withheld,
            vec![(
                "eve@example.com".to_string(),
                "No access to the sales overview".to_string()
            )]
        );
        let files: Vec<(Reach, Language, Vec<String>)> = split
            .audiences
            .iter()
            .map(|a| (a.reach.clone(), a.language, a.addresses.clone()))
            .collect();
        // Ann and Bob see m1 of the owner's machines (Bob's m9 is not the owner's): one file.
        assert!(files.contains(&(
            m(&["m1"]),
            Language::En,
            vec!["ann@example.com".into(), "bob@example.com".into()]
        )));
        assert!(files.contains(&(m(&["m1"]), Language::Fr, vec!["cid@example.com".into()])));
        // Dan sees everything: he gets the owner's reach, never more; the plain address too.
        assert!(files.contains(&(
            owner.clone(),
            Language::En,
            vec!["dan@example.com".into(), "boss@example.com".into()]
        )));
        assert_eq!(files.len(), 3);
        for a in &split.audiences {
            assert!(owner.covers(&a.reach));
        }
    }

    #[test]
    fn an_all_machines_owner_cuts_each_file_to_its_readers() {
        let split = split_audiences(
            &Reach::All,
            vec![
                user("ann", Language::It, Ok(m(&["m1"]))),
                user("dan", Language::It, Ok(Reach::All)),
            ],
        );
        assert_eq!(split.audiences.len(), 2);
        assert_eq!(split.audiences[0].reach, Reach::All);
        assert_eq!(split.audiences[1].reach, m(&["m1"]));
    }
}
