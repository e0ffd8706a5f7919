// The club's pages: their parts are read again every few seconds (each part comes
// rendered, in the page's language), forms are sent as JSON with the CSRF token, and a
// player's button asks for the one-time way in to their table.
"use strict";

const EVERY = 3000;
const csrf = () => document.querySelector('meta[name="csrf"]').content;

async function refresh() {
  for (const part of document.querySelectorAll("[data-part]")) {
    const code = part.dataset.code ? `?code=${encodeURIComponent(part.dataset.code)}` : "";
    try {
      const answer = await fetch(`/club/part/${part.dataset.part}${code}`, { cache: "no-store" });
      if (answer.ok) part.innerHTML = await answer.text();
    } catch (error) {
      // the club is out of reach for now: the page keeps what it showed
    }
  }
}

// A form's change is sent with a key of its own (the same key while it is being sent:
// a second click makes it once); a new key once it is answered.
async function post(path, body, key = null) {
  const headers = { "Content-Type": "application/json", "X-CSRF-Token": csrf() };
  if (key) headers["Idempotency-Key"] = key;
  const answer = await fetch(path, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  const data = await answer.json().catch(() => ({}));
  return { ok: answer.ok, data };
}

function fields(form) {
  const body = {};
  for (const input of form.querySelectorAll("input, select")) {
    if (input.type === "checkbox") body[input.name] = input.checked;
    else if (input.type === "number" || input.tagName === "SELECT") {
      if (input.value !== "") body[input.name] = Number(input.value);
    } else if (input.value !== "") body[input.name] = input.value;
  }
  return body;
}

document.addEventListener("submit", async (event) => {
  const form = event.target.closest("form[data-api]");
  if (!form) return;
  event.preventDefault();
  const said = form.querySelector(".answer");
  form.dataset.key ||= crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);
  const { ok, data } = await post(form.dataset.api, fields(form), form.dataset.key);
  delete form.dataset.key;
  said.classList.toggle("ok", ok);
  said.textContent = ok ? "✓" : data.error || "?";
  if (ok && form.dataset.reload === "page") location.reload();
  else if (ok) {
    form.reset();
    refresh();
  }
});

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-join]");
  if (!button) return;
  const { ok, data } = await post(`/club/api/me/${encodeURIComponent(button.dataset.join)}/join`, {});
  if (ok) location.href = data.link;
  else button.parentElement.querySelector(".answer").textContent = data.error || "?";
});

setInterval(refresh, EVERY);
