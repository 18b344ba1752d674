// passphrase_decrypt.js — an independent reader of Pulumi passphrase secrets, on Node's own crypto
// (no code shared with cimport): checks the passphrase against the salt state, then decrypts every
// `secure:` value of a Pulumi.<stack>.yaml and every `ciphertext` of a stack state.
//
//   PASSPHRASE=... node passphrase_decrypt.js config Pulumi.dev.yaml   → {"salt": ..., "values": {key: plaintext}}
//   PASSPHRASE=... node passphrase_decrypt.js state stack.json         → {"salt": ..., "values": {urn/path: plaintext}}
// Exit 1 with a message when the passphrase does not open the salt state or a value does not authenticate.
'use strict';
const crypto = require('crypto');
const fs = require('fs');

function keyFor(passphrase, saltState) {
  const m = /^v1:([^:]+):(v1:[^:]+:[^:]+)$/.exec(saltState);
  if (!m) throw new Error('malformed salt state: ' + saltState);
  const salt = Buffer.from(m[1], 'base64');
  const key = crypto.pbkdf2Sync(Buffer.from(passphrase, 'utf8'), salt, 1000000, 32, 'sha256');
  if (decrypt(key, m[2]) !== 'pulumi') throw new Error('the passphrase does not open the salt state');
  return key;
}

function decrypt(key, value) {
  const m = /^v1:([^:]+):([^:]+)$/.exec(value);
  if (!m) throw new Error('not a v1 value: ' + value);
  const nonce = Buffer.from(m[1], 'base64');
  const sealed = Buffer.from(m[2], 'base64');
  const tag = sealed.subarray(sealed.length - 16);
  const d = crypto.createDecipheriv('aes-256-gcm', key, nonce);
  d.setAuthTag(tag);
  return Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]).toString('utf8');
}

function fromConfig(text, passphrase) {
  const salt = /^encryptionsalt:\s*(\S+)\s*$/m.exec(text);
  if (!salt) throw new Error('no encryptionsalt');
  const key = keyFor(passphrase, salt[1]);
  const values = {};
  // `  <key>:` followed by `    secure: v1:...` (block style, as cimport and Pulumi write it)
  const re = /^ +("(?:[^"\\]|\\.)*"|[^\s"][^\n]*?):\s*\n +secure:\s*(v1:\S+)\s*$/gm;
  let m;
  while ((m = re.exec(text))) {
    const k = m[1].startsWith('"') ? JSON.parse(m[1]) : m[1];
    values[k] = decrypt(key, m[2]);
  }
  return {salt: salt[1], values};
}

function fromState(text, passphrase) {
  const doc = JSON.parse(text);
  const dep = doc.deployment || (doc.checkpoint && doc.checkpoint.latest);
  const sp = dep.secrets_providers;
  if (!sp || sp.type !== 'passphrase') throw new Error('not a passphrase stack state: ' + JSON.stringify(sp));
  const key = keyFor(passphrase, sp.state.salt);
  const values = {};
  const walk = (v, path) => {
    if (v && typeof v === 'object') {
      if (v['4dabf18193072939515e22adb298388d'] === '1b47061264138c4ac30d75fd1eb44270') {
        if ('plaintext' in v) throw new Error('plaintext secret at ' + path);
        values[path] = decrypt(key, v.ciphertext);
        return;
      }
      for (const k of Object.keys(v)) walk(v[k], path + '.' + k);
    }
  };
  for (const r of dep.resources || []) walk({inputs: r.inputs, outputs: r.outputs}, r.urn);
  return {salt: sp.state.salt, values};
}

try {
  const [mode, file] = process.argv.slice(2);
  const text = fs.readFileSync(file, 'utf8');
  const pass = process.env.PASSPHRASE;
  if (pass === undefined) throw new Error('set PASSPHRASE');
  const out = mode === 'config' ? fromConfig(text, pass) : fromState(text, pass);
  process.stdout.write(JSON.stringify(out) + '\n');
} catch (e) {
  process.stderr.write('passphrase_decrypt: ' + e.message + '\n');
  process.exit(1);
}
