// TLS to a broker of one's own (mqtt.ca, mqtt.cert, mqtt.key, mqtt.reject_unauthorized): the files'
// contents for mqtt.js, which uses them for mqtts:// and wss:// only, and what a certificate error means.
import { readFileSync } from 'node:fs';
import type { IClientOptions } from 'mqtt';
import type { MqttConfig } from '../../config/schema.js';
import type { CertificateFault } from '../../i18n/check-text.js';

/** The TLS options of the config: the PEM files read now (the config's load checked they can be). */
export function tlsOptions(mqtt: MqttConfig): Pick<IClientOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized'> {
  const pem = (key: 'ca' | 'cert' | 'key') => {
    const file = mqtt[key];
    return file === undefined ? {} : { [key]: readFileSync(file) };
  };
  return { ...pem('ca'), ...pem('cert'), ...pem('key'), rejectUnauthorized: mqtt.reject_unauthorized !== false };
}

/** Node's verification codes (OpenSSL's names) of a certificate no CA given vouches for. */
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/** The kind of certificate trouble a failed TLS connection had, if that was its trouble. */
export function certificateFault(error: unknown): CertificateFault | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  if (UNTRUSTED.has(code)) return 'cert_untrusted';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'cert_host';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'cert_expired';
  // The broker's TLS alert: it wants a client certificate, or does not trust the one given.
  if (/^ERR_SSL_.*ALERT_(BAD_CERTIFICATE|CERTIFICATE_REQUIRED|UNKNOWN_CA|CERTIFICATE_UNKNOWN)$/.test(code)) return 'cert_refused';
  return undefined;
}
