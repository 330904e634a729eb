// Vigie dashboard: countdowns to each deadline, ticking in the browser from the server-rendered UTC time.
(function () {
  function pad(n) { return n < 10 ? "0" + n : "" + n; }
  function text(ms, lang) {
    var late = ms < 0, s = Math.floor(Math.abs(ms) / 1000);
    var d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60), sec = s % 60;
    var span = (d > 0 ? d + (lang === "fr" ? " j " : " d ") : "") + pad(h) + ":" + pad(m) + ":" + pad(sec);
    if (lang === "fr") { return late ? "dépassée de " + span : "dans " + span; }
    return late ? "overdue by " + span : "in " + span;
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("time.countdown").forEach(function (t) {
      var ms = Date.parse(t.getAttribute("datetime")) - now;
      t.textContent = text(ms, t.getAttribute("data-lang"));
      t.classList.toggle("overdue", ms < 0);
    });
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();
// Pushed updates: an element with data-events listens to the server's events and reloads itself (htmx "refresh")
// when incidents change; its periodic hx-trigger stays as the fallback if the connection drops.
(function () {
  function listen() {
    document.querySelectorAll("[data-events]").forEach(function (el) {
      if (!window.EventSource || el.dataset.listening) { return; }
      el.dataset.listening = "1";
      var source = new EventSource(el.getAttribute("data-events"));
      source.addEventListener("incidents", function () { if (window.htmx) { htmx.trigger(el, "refresh"); } });
    });
  }
  document.addEventListener("DOMContentLoaded", listen);
})();
