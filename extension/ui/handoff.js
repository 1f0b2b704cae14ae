// The hand-off frame over the page (see handlers/handoff.js): the
// message, and Done and Cancel for the user. It is an extension page, so
// the page it sits on cannot read it or click it; only a trusted click
// counts, and only while the frame is really visible (Intersection
// Observer v2, where Chrome has it: a page that covers or fades the frame
// cannot make the user press Done unawares).
const token = location.hash.slice(1);
const $ = (id) => document.getElementById(id);
const ask = (req) => chrome.runtime.sendMessage({ ...req, token });
let until = 0;
let over = false;

// visibleNow asks Intersection Observer v2 whether the buttons show,
// unobscured, right now: true, false, or null when it cannot tell (no v2,
// or no answer within ms, as in a window that is not being drawn).
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
  $("left").textContent = "";
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
    end(r && r.gone ? "This hand-off has already ended." : outcome === "done" ? "Thanks: your agent takes over again." : "Cancelled: your agent has been told.");
  };
}

function tick() {
  if (over || !until) return;
  const s = Math.max(0, Math.round((until - Date.now()) / 1000));
  $("left").textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")} left`;
  $("left").title = "Your agent waits this long for you, then takes the tab back";
}

$("done").addEventListener("click", answer("done"));
$("cancel").addEventListener("click", answer("cancelled"));
$("move").addEventListener("click", (ev) => {
  if (ev.isTrusted) ask({ type: "handoff.move" });
});

ask({ type: "handoff.get" }).then((s) => {
  if (!s || s.gone) return end("This hand-off has ended.");
  $("message").textContent = s.message;
  until = s.until;
  tick();
  setInterval(tick, 1000);
}, () => end("This hand-off has ended."));
