// The dashboard's only script (served at /dashboard/app.js): live refresh on server-sent
// events, keeping the focused control focused; the action buttons and the fault form as POSTs
// with the dashboard's header. Plain ES2020, no library, nothing fetched from elsewhere.
export const DASHBOARD_SCRIPT = `"use strict";
(() => {
  const live = document.getElementById('live');
  const say = (text) => { if (live) live.textContent = text; };
  let timer = 0, busy = false, again = false;
  const keyOf = (el) => el.getAttribute('data-body') || el.getAttribute('href') || el.getAttribute('name') || el.id || '';
  async function refresh() {
    if (busy) { again = true; return; }
    const active = document.activeElement;
    // Someone typing in a field keeps what they typed: the page refreshes after they leave it.
    if (active && active.closest('#main form') && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) { again = true; return; }
    busy = true;
    try {
      const res = await fetch(location.href, { headers: { 'x-socialpub-fragment': '1' }, credentials: 'same-origin' });
      if (res.ok) {
        const main = document.getElementById('main');
        const key = active && main.contains(active) ? keyOf(active) : '';
        main.innerHTML = await res.text();
        if (key) {
          for (const el of main.querySelectorAll('a,button,input,select')) if (keyOf(el) === key) { el.focus(); break; }
        }
      }
    } catch (e) { say('update failed: ' + e.message); }
    finally { busy = false; if (again) { again = false; schedule(); } }
  }
  function schedule() { clearTimeout(timer); timer = setTimeout(refresh, 150); }
  document.addEventListener('focusout', () => { if (again) schedule(); });
  if ('EventSource' in window) {
    const events = new EventSource('/dashboard/events');
    events.addEventListener('change', schedule);
    events.onopen = () => say('live');
    events.onerror = () => say('reconnecting…');
  }
  async function post(url, body) {
    let res;
    // A sandbox stopped mid-use: the click says so, rather than nothing (and no unhandled rejection).
    try { res = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-socialpub-dashboard': '1' }, body }); }
    catch (e) { say('failed: the sandbox did not answer (' + e.message + ')'); return; }
    const answer = await res.json().catch(() => ({}));
    say(res.ok ? (answer.message || 'done') : 'failed: ' + ((answer.error && answer.error.message) || res.status));
    schedule();
  }
  document.addEventListener('click', (e) => {
    const button = e.target.closest('button[data-action]');
    if (!button) return;
    e.preventDefault();
    button.disabled = true;
    post(button.getAttribute('data-action'), button.getAttribute('data-body')).finally(() => { button.disabled = false; });
  });
  document.addEventListener('submit', (e) => {
    const form = e.target.closest('form[data-action]');
    if (!form) return;
    e.preventDefault();
    const values = {};
    // A field left empty changes nothing (Number('') would be 0: every target succeeding, unasked).
    for (const [k, v] of new FormData(form)) if (String(v).trim() !== '') values[k] = Number(v);
    post(form.getAttribute('data-action'), JSON.stringify(values));
  });
})();
`;
