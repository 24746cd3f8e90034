//! The systemd unit in `deploy/` is one systemd takes, and keeps the server
//! running: `systemd-analyze verify` checks a copy of it whose `ExecStart`
//! names the `xiangqi` binary just built (verify checks that the binary
//! exists, and `/usr/local/bin/xiangqi` is not installed here).

use std::{path::PathBuf, process::Command};

fn unit() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../deploy/xiangqi.service");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_unit_starts_the_server_again_whatever_ends_it_and_confines_it() {
    let unit = unit();
    let settings: Vec<&str> = unit.lines().filter(|l| !l.starts_with('#')).collect();
    for wanted in [
        "ExecStart=/usr/local/bin/xiangqi serve",
        "Restart=always",
        "StartLimitIntervalSec=0",
        "User=xiangqi",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "ReadWritePaths=/var/lib/xiangqi",
        "Environment=XIANGQI_DATABASE=sqlite:///var/lib/xiangqi/xiangqi.db?mode=rwc",
    ] {
        assert!(settings.contains(&wanted), "the unit lacks {wanted}");
    }
    assert!(settings.iter().any(|l| l.starts_with("RestartSec=")), "a pause between restarts");
    assert!(settings.iter().any(|l| l.starts_with("LimitNOFILE=")), "room for WebSockets");
}

#[test]
#[ignore = "needs systemd-analyze (Debian's systemd package, which .ci/run installs); CI runs ignored tests"]
fn systemd_analyze_verifies_the_unit() {
    let analyze = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|dir| dir.join("systemd-analyze"))
        .find(|p| p.is_file())
        .expect("systemd-analyze is not installed: install Debian's systemd package (.ci/run does)");
    let unit = unit();
    assert!(unit.contains("ExecStart=/usr/local/bin/xiangqi "), "the unit starts the installed binary");
    let built = env!("CARGO_BIN_EXE_xiangqi");
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("xiangqi-unit-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("xiangqi.service");
    std::fs::write(&copy, unit.replace("ExecStart=/usr/local/bin/xiangqi ", &format!("ExecStart={built} ")))
        .unwrap();
    let out = Command::new(&analyze)
        .args(["verify", "--man=no", "--recursive-errors=no"])
        .arg(&copy)
        .output()
        .expect("systemd-analyze runs");
    let _ = std::fs::remove_dir_all(&dir);
    let said = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "systemd-analyze verify refuses the unit:\n{said}");
    // Other units of this machine may draw remarks; none may be about this one.
    let about_it: Vec<&str> = said.lines().filter(|l| l.contains("xiangqi.service")).collect();
    assert!(about_it.is_empty(), "systemd-analyze verify remarks on the unit:\n{}", about_it.join("\n"));
}
