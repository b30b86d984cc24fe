import { describe, expect, it } from 'vitest';
import { redactUrl } from './redaction';

/** Every secret below contains this marker, so a leak of any part of it is easy to spot. */
const marker = 'xyzzy';
const plainSecret = `${marker}Tok_en-9.${marker}`;
/** Every character percent-encoded, as a client may legally send it. */
const percentEncoded = (text: string) => [...text].map((character) => `%${character.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
/** Secrets as they stand in a URL: plain, with characters a link must encode, fully encoded. */
const secrets = [plainSecret, encodeURIComponent(`${marker}/a b+c&d=e?f#g~${marker}`), percentEncoded(plainSecret)];

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

interface SecretRoute {
  name: string;
  /** The URL carrying `secret` exactly as a client would send it. */
  url(secret: string): string;
}

/** Query-carried secrets: path, parameter name and the parameters that come with it. */
const queryRoutes = [
  { name: 'reset password page', path: '/reset-password', parameter: 'token', others: '' },
  { name: 'complete-signup page', path: '/complete-signup', parameter: 'temp_password', others: 'user_id=u1&chat_id=c1' },
  { name: 'file download', path: '/api/files/files/abcdefghijklmno/report_abcdefghij.pdf', parameter: 'token', others: 'download=1' },
  { name: 'image proxy', path: '/api/image-proxy', parameter: 'token', others: 'url=https%3A%2F%2Fcats.example%2Fa.png' },
  { name: 'live site start', path: '/live/abcdefghijklmno/', parameter: 'token', others: '' },
  { name: 'live site start without slash', path: '/live/abcdefghijklmno', parameter: 'token', others: '' },
];

/** Path-carried secrets. */
const pathRoutes: SecretRoute[] = [
  { name: 'join page', url: (secret) => `/join/${secret}` },
  { name: 'invitation view', url: (secret) => `/api/invitation/${secret}` },
  { name: 'invitation accept', url: (secret) => `/api/accept-invitation/${secret}` },
  { name: 'live site index', url: (secret) => `/live/abcdefghijklmno/~abcdefghijklmno.1700000000.${secret}/` },
  { name: 'live site without slash', url: (secret) => `/live/abcdefghijklmno/~${secret}` },
  { name: 'live site asset', url: (secret) => `/live/abcdefghijklmno/~${secret}/css/site.css` },
  { name: 'live site, encoded ~', url: (secret) => `/live/abcdefghijklmno/%7E${secret}/index.html` },
];

function queryVariants(route: (typeof queryRoutes)[number]): SecretRoute[] {
  const { path, parameter, others } = route;
  const withOthers = (query: string) => `${path}?${[others, query].filter((part) => part !== '').join('&')}`;
  const encodedName = percentEncoded(parameter);
  const variants: SecretRoute[] = [
    { name: 'as sent', url: (secret) => withOthers(`${parameter}=${secret}`) },
    { name: 'extra parameters after', url: (secret) => withOthers(`${parameter}=${secret}&page=2&x=`) },
    { name: 'extra parameters before', url: (secret) => `${path}?a=1&b&${[others, `${parameter}=${secret}`].filter(Boolean).join('&')}` },
    { name: 'repeated parameter', url: (secret) => withOthers(`${parameter}=${secret}&${parameter}=${secret}2`) },
    { name: 'upper-case name', url: (secret) => withOthers(`${parameter.toUpperCase()}=${secret}`) },
    { name: 'mixed-case name', url: (secret) => withOthers(`${parameter[0]?.toUpperCase()}${parameter.slice(1)}=${secret}`) },
    { name: 'percent-encoded name', url: (secret) => withOthers(`${encodedName}=${secret}`) },
    { name: 'empty value first', url: (secret) => withOthers(`${parameter}=&${parameter}=${secret}`) },
    { name: 'trailing slash', url: (secret) => `${path.replace(/\/?$/, '/')}?${parameter}=${secret}` },
  ];
  return variants.map((variant) => ({ name: `${route.name}: ${variant.name}`, url: variant.url }));
}

function pathVariants(route: SecretRoute): SecretRoute[] {
  return [
    { name: 'as sent', url: route.url },
    { name: 'with a query', url: (secret: string) => `${route.url(secret)}?chat_id=c1&page=1` },
    { name: 'with a secret query too', url: (secret: string) => `${route.url(secret)}?token=${secret}` },
    { name: 'trailing slash', url: (secret: string) => `${route.url(secret).replace(/\/$/, '')}/` },
    { name: 'upper-case path', url: (secret: string) => route.url(secret).replace(/^\/[^/]+\/(?:[^/]+\/)?/, (prefix) => prefix.toUpperCase()) },
    { name: 'doubled slash', url: (secret: string) => route.url(secret).replace(/\/(?=[^/]*$)|\/(?=~|%7E|xyzzy)/, '//') },
  ].map((variant) => ({ name: `${route.name}: ${variant.name}`, url: variant.url }));
}

const cases = [...queryRoutes.flatMap(queryVariants), ...pathRoutes.flatMap(pathVariants)];

describe('redactUrl over every route that carries a secret', () => {
  it.each(cases)('$name', (route) => {
    for (const secret of secrets) {
      const url = route.url(secret);
      expect(decoded(url).toLowerCase()).toContain(marker);
      const logged = redactUrl(url);
      expect(logged.toLowerCase(), `${url} → ${logged}`).not.toContain(marker);
      expect(decoded(logged).toLowerCase(), `${url} → ${logged}`).not.toContain(marker);
      expect(logged).toContain('[redacted]');
    }
  });
});

describe('redactUrl keeps what is not secret', () => {
  it.each([
    ['/reset-password?token=abc&x=1', '/reset-password?token=[redacted]&x=1'],
    ['/a?x=1&password=hunter2', '/a?x=1&password=[redacted]'],
    ['/complete-signup?user_id=u1&chat_id=c1&temp_password=pw', '/complete-signup?user_id=u1&chat_id=c1&temp_password=[redacted]'],
    ['/join/abc?x=1', '/join/[redacted]?x=1'],
    ['/api/accept-invitation/abcDEF123_-xyz?chat_id=1', '/api/accept-invitation/[redacted]?chat_id=1'],
    ['/api/invitation/abcDEF123_-xyz', '/api/invitation/[redacted]'],
    ['/live/chat1/~u.1.sig/', '/live/chat1/~[redacted]/'],
    ['/live/chat1/~u.1.sig/a/b.css?v=2', '/live/chat1/~[redacted]/a/b.css?v=2'],
    ['/live/chat1/?token=t', '/live/chat1/?token=[redacted]'],
    ['/api/files/files/r1/a.pdf?download=1&token=t', '/api/files/files/r1/a.pdf?download=1&token=[redacted]'],
    ['/api/collections/chats/records?page=2&perPage=30&sort=-created', '/api/collections/chats/records?page=2&perPage=30&sort=-created'],
    ['/api/health', '/api/health'],
    ['/live/chat1', '/live/chat1'],
    ['/join', '/join'],
    ['/', '/'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
