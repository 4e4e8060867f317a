// Tuber Market's script on Keycloak's pages (loaded by template.ftl as an external module, never inline, so
// the pages run under a Content-Security-Policy without 'unsafe-inline'). Everything is wired from data-*
// attributes in the templates:
//   [data-tuber-reveal]         Show/Hide button of the password field named by aria-controls
//   form[data-tuber-submit-once] the submit button is disabled once the form is sent
//   [data-tuber-resend]         the product's "Resend verification" (POST to the URL in the attribute)
//   [data-tuber-auto-continue]  a link followed by itself once the page has loaded (front-channel logout)
//   body[data-login-in-other-tab-url] Keycloak's check for a login finished in another tab
// and, on every page, the address clean-up after a form post (forgetPostAddress).

const TOAST_MS = 6000;

function toast(kind, text) {
  const host = document.getElementById('tuber-toasts');
  if (!host) return;
  const item = document.createElement('div');
  item.className = `tuber-toast tuber-toast--${kind}`;
  item.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  const message = document.createElement('span');
  message.className = 'tuber-toast__message';
  message.textContent = text;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'tuber-toast__close';
  close.setAttribute('aria-label', 'Dismiss');
  close.textContent = '×';
  close.addEventListener('click', () => item.remove());
  item.append(message, close);
  host.append(item);
  setTimeout(() => item.remove(), TOAST_MS);
}

function wireReveal(button) {
  const input = document.getElementById(button.getAttribute('aria-controls') ?? '');
  const label = button.querySelector('[data-tuber-reveal-label]');
  if (!input || !label) return;
  button.addEventListener('click', () => {
    const show = input.type === 'password';
    input.type = show ? 'text' : 'password';
    label.textContent = show ? button.dataset.labelHide : button.dataset.labelShow;
    input.focus();
  });
}

function wireSubmitOnce(form) {
  let sent = false;
  form.addEventListener('submit', (event) => {
    if (sent) {
      event.preventDefault();
      return;
    }
    sent = true;
    // After the form data is built, so a named submit button still sends its value.
    setTimeout(() => form.querySelectorAll('[type="submit"]').forEach((button) => (button.disabled = true)), 0);
  });
}

async function resendVerification(link) {
  const idle = link.textContent;
  link.setAttribute('aria-disabled', 'true');
  link.textContent = link.dataset.sending || idle;
  try {
    const response = await fetch(link.dataset.tuberResend, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: link.dataset.email }),
    });
    const body = await response.json().catch(() => null);
    if (!response.ok) throw new Error(body?.message || `${response.status} ${response.statusText}`.trim());
    toast('success', body?.message || link.dataset.sent);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    toast('error', (link.dataset.failed || 'Failed to resend: {0}').replace('{0}', reason));
  } finally {
    link.removeAttribute('aria-disabled');
    link.textContent = idle;
  }
}

function wireResend(link) {
  link.addEventListener('click', (event) => {
    event.preventDefault(); // the href is Keycloak's own resend, for when this script does not run
    if (link.getAttribute('aria-disabled') === 'true') return;
    void resendVerification(link);
  });
}

function autoContinue(link) {
  const go = () => window.location.replace(link.href);
  if (document.readyState === 'complete') go();
  else window.addEventListener('load', go, { once: true });
}

// After a form post the address bar shows the post's address (with its one-time session_code), and a reload
// would post again. Keycloak's server fixes that with an inline script, which this theme's pages do not let
// in (see template.ftl); the same without it: the step's own address, minus the spent code.
function forgetPostAddress() {
  const here = new URL(window.location.href);
  if (!here.pathname.includes('/login-actions/') || !here.searchParams.has('session_code')) return;
  here.searchParams.delete('session_code');
  window.history.replaceState({}, '', here.href);
}

async function watchLoginInOtherTab(url) {
  try {
    const { startSessionPolling } = await import('./authChecker.js');
    startSessionPolling(url);
  } catch {
    // Keycloak's helper moved or failed to load: the pages work without it.
  }
}

forgetPostAddress();
document.querySelectorAll('[data-tuber-reveal]').forEach(wireReveal);
document.querySelectorAll('form[data-tuber-submit-once]').forEach(wireSubmitOnce);
document.querySelectorAll('[data-tuber-resend]').forEach(wireResend);
document.querySelectorAll('[data-tuber-auto-continue]').forEach(autoContinue);
const otherTabUrl = document.body.dataset.loginInOtherTabUrl;
if (otherTabUrl) void watchLoginInOtherTab(otherTabUrl);
