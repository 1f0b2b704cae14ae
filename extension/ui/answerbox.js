// The box the user answers in, shared by the hand-off (handoff.js) and the
// question of "ask before irreversible steps" (ask.js): over the page in
// a frame, or in a small window of the extension's own. It is an extension
// page, so the page it sits on cannot read it or click it; only a trusted
// click on one of its buttons answers, and only while the buttons really
// show (Intersection Observer v2, where Chrome has it: a page that covers
// or fades the frame cannot make the user answer unawares).
const token = location.hash.slice(1);
export const $ = (id) => document.getElementById(id);
const ask = (req) => chrome.runtime.sendMessage({ ...req, token });

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

// answerBox wires the box up:
//   - buttons: element ID → the outcome its click answers;
//   - answered(outcome): what the box says once that answer is taken;
//   - gone: what it says when the hand-off or question ended before
//     (alreadyGone: when it ended as the user answered);
//   - leftTitle: the countdown's tooltip;
//   - shown(state): fills in what handoff.get answered beyond the message;
//   - ended(): what else to do once the box has ended.
export function answerBox({ buttons, answered, gone, alreadyGone, leftTitle, shown = () => {}, ended = () => {} }) {
  let until = 0;
  let over = false;
  const end = (text) => {
    over = true;
    $("message").textContent = text;
    $("actions").hidden = true;
    $("move").hidden = true;
    $("note").hidden = true;
    $("left").textContent = "";
    ended();
  };
  const tick = () => {
    if (over || !until) return;
    const s = Math.max(0, Math.round((until - Date.now()) / 1000));
    $("left").textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")} left`;
    $("left").title = leftTitle;
  };
  for (const [id, outcome] of Object.entries(buttons)) {
    $(id).addEventListener("click", async (ev) => {
      if (!ev.isTrusted || over) return;
      if ((await visibleNow(300)) === false) {
        $("note").textContent = "Something covers this box: make sure all of it shows, then press again.";
        $("note").hidden = false;
        return;
      }
      const r = await ask({ type: "handoff.answer", outcome });
      end(r && r.gone ? alreadyGone : answered(outcome));
    });
  }
  $("move").addEventListener("click", (ev) => {
    if (ev.isTrusted) ask({ type: "handoff.move" });
  });
  ask({ type: "handoff.get" }).then((s) => {
    if (!s || s.gone) return end(gone);
    $("message").textContent = s.message;
    shown(s);
    until = s.until;
    tick();
    setInterval(tick, 1000);
  }, () => end(gone));
}
