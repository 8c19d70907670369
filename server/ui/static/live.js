// Live refresh. Reading needs no script; this one keeps a page current while agents write.
// Every few seconds it asks /api/live for the digest of what this page shows; when that
// changed, it fetches the page again and swaps its content in, marking the rows that are
// new or changed. While a form on the page is being filled in, it only says so.
(function () {
  "use strict";
  var digest = document.querySelector('meta[name="anchormem-digest"]');
  var status = document.getElementById("live-status");
  if (!digest || !digest.content || !status) return;
  var delay = 2000;

  function say(text) { status.textContent = text; }
  function clock() { return new Date().toLocaleTimeString(); }

  function editing() {
    var fields = document.querySelectorAll(
      "#content input[type=text], #content input[type=search], #content textarea");
    for (var i = 0; i < fields.length; i++) {
      if (fields[i].value !== fields[i].defaultValue || fields[i] === document.activeElement) {
        return true;
      }
    }
    var box = document.querySelector("#content input[name=confirm]");
    return Boolean(box && box.checked);
  }

  function keys(root) {
    var found = {};
    root.querySelectorAll("[data-id]").forEach(function (el) {
      found[el.getAttribute("data-id")] = el.getAttribute("data-key");
    });
    return found;
  }

  async function swap() {
    var answer = await fetch(location.href, { credentials: "same-origin", cache: "no-store" });
    if (!answer.ok) throw new Error("HTTP " + answer.status);
    var page = new DOMParser().parseFromString(await answer.text(), "text/html");
    var fresh = page.getElementById("content");
    var here = document.getElementById("content");
    if (!fresh || !here) return;
    var before = keys(here);
    var added = 0, changed = 0;
    fresh = document.importNode(fresh, true);
    fresh.querySelectorAll("[data-id]").forEach(function (el) {
      var id = el.getAttribute("data-id");
      if (!(id in before)) { el.classList.add("fresh"); added++; }
      else if (before[id] !== el.getAttribute("data-key")) { el.classList.add("changed"); changed++; }
    });
    here.replaceWith(fresh);
    var next = page.querySelector('meta[name="anchormem-digest"]');
    if (next) digest.content = next.content;
    var nav = page.querySelector("header nav");
    var ours = document.querySelector("header nav");
    if (nav && ours) ours.replaceWith(document.importNode(nav, true));  // the conflicts count
    var what = [];
    if (added) what.push(added + " new");
    if (changed) what.push(changed + " changed");
    say("updated " + clock() + (what.length ? ": " + what.join(", ") : ""));
  }

  async function poll() {
    if (!document.hidden) {
      try {
        var query = new URLSearchParams(location.search);
        query.set("path", location.pathname);
        var answer = await fetch("/api/live?" + query.toString(),
                                 { credentials: "same-origin", cache: "no-store" });
        if (answer.status === 403) { say("live refresh stopped: reopen the printed link"); return; }
        if (answer.ok) {
          var now = await answer.json();
          delay = now.poll_ms || delay;
          if (now.digest === digest.content) say("live · checked " + clock());
          else if (editing()) say("changed at " + clock() + ": reload to see it");
          else await swap();
        } else {
          say("live refresh: the page answered " + answer.status);
        }
      } catch (err) {
        say("live refresh failed (" + err.message + "); trying again");
      }
    }
    setTimeout(poll, delay);
  }

  say("live");
  setTimeout(poll, delay);
})();
