// Accounts and the one chat for the confab run, through the record API as any client would.

/**
 * @param {string} baseUrl e.g. http://127.0.0.1:1234
 * @param {number} userCount
 * @returns {Promise<{ tokens: string[], chatId: string, websocketUrl: string }>}
 */
export async function setUpConfab(baseUrl, userCount) {
  const call = async (path, body, token) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(`${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const password = 'bench password 1';
  const run = Date.now().toString(36);
  const users = [];
  // Sequential on purpose: password hashing is CPU-bound, parallel requests would only queue.
  for (let index = 0; index < userCount; index += 1) {
    const username = `bench_${run}_${index}`;
    await call('/api/collections/users/records', { username, email: `${username}@example.com`, password, passwordConfirm: password });
    const auth = await call('/api/collections/users/auth-with-password', { identity: username, password });
    users.push({ id: auth.record.id, token: auth.token });
  }
  const [owner] = users;
  const chat = await call('/api/collections/chats/records', { name: 'Bench chat', participants: users.map((user) => user.id) }, owner.token);
  const config = await call('/api/config');
  return { tokens: users.map((user) => user.token), chatId: chat.id, websocketUrl: config.websocket_url };
}
