// The question of "ask before irreversible steps" (handlers/ask.js): over
// the page in a frame, or in a small window of the extension's own
// (?window=1). Only a trusted click on Allow or Decline answers, and only
// while the buttons really show (Intersection Observer v2, where Chrome
// has it: a page that covers or fades the frame cannot make the user
// allow unawares) — as for the hand-off's Done (handoff.js).
const token = location.hash.slice(1);
const inWindow = new URLSearchParams(location.search).has("window");
const $ = (id) => document.getElementById(id);
const ask = (req) => chrome.runtime.sendMessage({ ...req, token });
let until = 0;
let over = false;

const HEADINGS = {
  submit: "Browser Bridge · send a form?",
  payment: "Browser Bridge · a payment?",
  navigation: "Browser Bridge · another site?",
};

if (inWindow) {
  document.body.classList.add("window");
  $("move").hidden = true;
}

function visibleNow(ms) {
  return new Promise((resolve) => {
    let io;
    const timer = setTimeout(() => { io?.disconnect(); resolve(null); }, ms);
    try {
      io = new IntersectionObserver((entries) => {
        const e = entries[entries.length - 1];
        clearTimeout(timer);
        io.disconnect();
        resolve("isVisible" in e ? e.isVisible : null);
      }, { trackVisibility: true, delay: 100 });
      io.observe($("actions"));
    } catch (_) {
      clearTimeout(timer);
      resolve(null);
    }
  });
}

function end(text) {
  over = true;
  $("message").textContent = text;
  $("actions").hidden = true;
  $("move").hidden = true;
  $("note").hidden = true;
  $("detail").hidden = true;
  $("left").textContent = "";
  if (inWindow) setTimeout(() => window.close(), 1500);
}

function answer(outcome) {
  return async (ev) => {
    if (!ev.isTrusted || over) return;
    if ((await visibleNow(300)) === false) {
      $("note").textContent = "Something covers this box: make sure all of it shows, then press again.";
      $("note").hidden = false;
      return;
    }
    const r = await ask({ type: "handoff.answer", outcome });
    end(r && r.gone ? "This question has already ended." : outcome === "allowed" ? "Allowed: your agent goes on." : "Declined: your agent has been told, and nothing was done.");
  };
}

function tick() {
  if (over || !until) return;
  const s = Math.max(0, Math.round((until - Date.now()) / 1000));
  $("left").textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")} left`;
  $("left").title = "With no answer by then, the answer is no";
}

$("allow").addEventListener("click", answer("allowed"));
$("decline").addEventListener("click", answer("declined"));
$("move").addEventListener("click", (ev) => {
  if (ev.isTrusted) ask({ type: "handoff.move" });
});

ask({ type: "handoff.get" }).then((s) => {
  if (!s || s.gone) return end("This question has ended.");
  $("heading").textContent = HEADINGS[s.ask] || "Browser Bridge · your agent asks";
  $("message").textContent = s.message;
  if (s.detail) {
    $("detail").textContent = s.detail;
    $("detail").hidden = false;
  }
  until = s.until;
  tick();
  setInterval(tick, 1000);
}, () => end("This question has ended."));
