//! A zip's members: planned from the central directory in order (the budget decides the
//! same whatever the threads do), then inflated and parsed in parallel, each thread on its
//! own clone of the archive.

use super::*;

/// What to do with a zip member, decided from the central directory before any member
/// is inflated (in order, so that where the budget runs out does not depend on threads).
enum ZipPlan {
    /// Read the member; `false`: only for its Events' times ([`crate::ingest::parse_for_times`]).
    Read(String, formats::ZipMember, bool),
    Done(Result<Member, SourceProblem>),
}

/// Reads a zip's members (in parallel, each thread on its own clone of the archive).
/// `from_file`: the zip is the archive read from disk, whose compressed bytes count as
/// read as its members are planned (else they were counted as they were read).
pub(super) fn expand_zip<R: Read + Seek + Clone + Send + Sync>(
    reader: R,
    prefix: &str,
    depth: usize,
    reading: &Reading,
    from_file: bool,
    out: &mut Collected,
) -> Result<(), String> {
    let archive =
        zip::ZipArchive::new(reader.clone()).map_err(|e| format!("unreadable zip archive: {e}"))?;
    let mut members = Vec::with_capacity(archive.len());
    for i in 0..archive.len() {
        match archive.by_index_data(i) {
            Ok(entry) => members.push(formats::ZipMember::of(&entry, i)),
            Err(e) => out.problems.push(SourceProblem {
                path: format!("{prefix}#{i}"),
                message: format!("unreadable zip member: {e}"),
            }),
        }
    }
    // The zip crate keeps only the last member of each name; the others are read from
    // their local headers, as a tar's duplicates are read.
    if archive.has_duplicate_names() {
        let kept: std::collections::HashSet<u64> = (0..archive.len())
            .filter_map(|i| archive.by_index_data(i).ok())
            .map(|e| e.central_header_start())
            .collect();
        let start = archive.central_directory_start();
        let shadowed =
            formats::shadowed_zip_members(reader.clone(), start, archive.offset(), &kept)
                .map_err(|e| format!("unreadable zip central directory: {e}"))?;
        members.extend(shadowed);
    }
    // At most as many files as a folder walk collects, in the central directory's order.
    let not_read = over_member_cap(&mut members, &reading.budget);
    // A selective read decides the layout from the member names, as ingest will.
    let picked = reading.pick.filter(|_| prefix.is_empty()).map(|want| {
        let names: Vec<String> = members
            .iter()
            .map(|m| String::from_utf8_lossy(&m.name).into_owned())
            .collect();
        (
            want,
            crate::ingest::layout::detect(names.iter().map(|n| n.as_str())),
        )
    });
    let plans: Vec<ZipPlan> = members
        .into_iter()
        .map(|m| {
            let name = safe_name(&String::from_utf8_lossy(&m.name)).ok();
            match (&picked, name) {
                (Some((want, detected)), Some(name))
                    if !m.dir && !m.symlink && !want.admits(detected, &name) =>
                {
                    ZipPlan::Done(Ok(Member::Dropped(name)))
                }
                (Some((want, detected)), Some(name)) if want.times_only(detected, &name) => {
                    // Read only for its Events' times: parsed without views.
                    match plan_zip_member(m, prefix, reading, from_file) {
                        ZipPlan::Read(path, member, _) => ZipPlan::Read(path, member, false),
                        done => done,
                    }
                }
                _ => plan_zip_member(m, prefix, reading, from_file),
            }
        })
        .collect();
    let read: Vec<Result<Member, SourceProblem>> = plans
        .into_par_iter()
        .map_with((archive, reader), |(archive, raw), plan| match plan {
            ZipPlan::Done(done) => done,
            ZipPlan::Read(path, member, views) => {
                let parse = match reading.parse {
                    Some(_) if !views => Some(&crate::ingest::parse_for_times as &ParseMember),
                    parse => parse,
                };
                let data = match member.at {
                    formats::ZipAt::Index(i) => archive
                        .by_index(i)
                        .map_err(|e| format!("unreadable zip member: {e}"))
                        .and_then(|mut file| read_member(&mut file, &path, member.size, parse)),
                    formats::ZipAt::Local { .. } => member
                        .open_local(raw)
                        .and_then(|mut file| read_member(&mut file, &path, member.size, parse)),
                };
                match data {
                    Ok(data) => Ok(Member::File(Entry { path, data })),
                    Err(message) => Err(SourceProblem { path, message }),
                }
            }
        })
        .collect();
    for m in read {
        match m {
            Ok(Member::File(e)) => push_entry(e.path, e.data, depth, reading, out),
            Ok(Member::Symlink) => out.symlinks += 1,
            Ok(Member::Skipped) => {}
            Ok(Member::Dropped(path)) => out.dropped.push(path),
            Err(p) => out.problems.push(p),
        }
    }
    match not_read {
        None => Ok(()),
        Some(message) => Err(message),
    }
}

/// Keeps the files of `members` that [`MemberCap`] takes (folders and links do not
/// count), in the central directory's order; the problem naming those it left out.
fn over_member_cap(members: &mut Vec<formats::ZipMember>, budget: &Budget) -> Option<String> {
    let mut cap = MemberCap::new(budget);
    members.retain(|m| m.dir || m.symlink || cap.take());
    cap.problem()
}

/// Decides, from its central directory entry, whether a zip member is read: not a folder,
/// a link, an encrypted member, a bomb or a member over the entry limit, nor any member
/// once the archive's budget is spent.
fn plan_zip_member(
    member: formats::ZipMember,
    prefix: &str,
    reading: &Reading,
    from_file: bool,
) -> ZipPlan {
    let refused =
        |path: String, message: String| ZipPlan::Done(Err(SourceProblem { path, message }));
    if reading.budget.tripped().is_some() {
        return ZipPlan::Done(Ok(Member::Skipped));
    }
    let raw_name = String::from_utf8_lossy(&member.name).into_owned();
    let name = match safe_name(&raw_name) {
        Ok(n) => n,
        Err(message) => {
            return refused(
                format!("{prefix}{}", raw_name.replace('\0', "\\0")),
                message,
            );
        }
    };
    if member.dir {
        return ZipPlan::Done(Ok(Member::Skipped));
    }
    if member.symlink {
        return ZipPlan::Done(Ok(Member::Symlink));
    }
    let path = format!("{prefix}{name}");
    let (size, packed) = (member.size, member.packed.max(1));
    if member.encrypted {
        return refused(
            path,
            "encrypted zip member; kdiag reads no passwords; not read".into(),
        );
    }
    // A log is read through to its tail: any ratio costs no memory (see [`budget`]).
    let log = is_log_name(&path);
    if !log && size > bomb_min_bytes() && size / packed > BOMB_RATIO {
        let message = format!(
            "member would inflate {size} bytes from {packed} ({}:1); not read (zip bomb?)",
            size / packed
        );
        return refused(path, message);
    }
    if size > max_entry_bytes() && !log {
        return refused(path, too_large(size));
    }
    if from_file {
        reading.budget.add_packed(member.packed);
    }
    let taken = if log {
        reading.budget.take_streamed(size)
    } else {
        reading.budget.take(size)
    };
    if let Err(why) = taken {
        return refused(path, why);
    }
    if !log
        && held(&path, reading)
        && let Err(why) = reading.budget.hold(size)
    {
        return refused(path, why);
    }
    ZipPlan::Read(path, member, true)
}
