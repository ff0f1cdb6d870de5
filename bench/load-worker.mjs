// Load generator for the benchmarks, in a child process: the simulated users' HTTP and JSON work
// must neither run on the event loop of the server under test nor count in its memory.
import http from 'node:http';

const reply = (message) => process.send?.(message);

// node:http on kept-alive sockets, not fetch: on this two-core machine the load generator shares the
// CPU with the server under test, and fetch spent about three times as much of it per request.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * `method` (GET unless given) `url` with `body` as JSON, and the answer's body as bytes; `host`
 * names the tenant when the URL's host does not.
 */
function send(url, token, host, method = 'GET', body = undefined) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = {
      authorization: `Bearer ${token}`,
      ...(host ? { host } : {}),
      ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
    };
    const request = http.request(url, { method, agent, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** @param {{ url: string, token: string, host?: string, method?: string, body?: unknown }} request */
async function timed(request) {
  const started = performance.now();
  const response = await send(request.url, request.token, request.host, request.method, request.body);
  const text = response.body.toString('utf8');
  const body = JSON.parse(text);
  const ms = performance.now() - started;
  // A refusal must not pass for a success: its answer comes back for the report.
  const refusal = response.status === 200 ? {} : { refusal: text.slice(0, 200) };
  return { ms, status: response.status, totalRows: body.TotalRows, maxPage: body.MaxPage, ...refusal };
}

/** Downloads an export while a user pages the list every 100 ms; reports both. */
async function exportWithPolling(message) {
  let exporting = true;
  const listLatencies = [];
  const poller = (async () => {
    let pageNo = 1;
    while (exporting) {
      const result = await timed({ url: `${message.listUrl}&pageNo=${pageNo}`, token: message.token });
      if (result.status !== 200) throw new Error(`list answered ${result.status}`);
      listLatencies.push(result.ms);
      pageNo = (pageNo % 500) + 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = performance.now();
  const response = await fetch(message.exportUrl, { headers: { authorization: `Bearer ${message.token}` } });
  if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
  let bytes = 0;
  let records = 0;
  for await (const chunk of response.body) {
    bytes += chunk.byteLength;
    for (let index = 0; index < chunk.length; index++) if (chunk[index] === 10) records++;
  }
  const exportMs = performance.now() - started;
  exporting = false;
  await poller;
  return { exportMs, bytes, records, listLatencies, contentDisposition: response.headers.get('content-disposition') };
}

process.on('message', async (message) => {
  if (message.type === 'export') {
    try {
      reply({ id: message.id, export: await exportWithPolling(message) });
    } catch (error) {
      reply({ id: message.id, error: String(error) });
    }
    return;
  }
  try {
    // message.clients: one array of requests per concurrent client, run one after another.
    const results = await Promise.all(
      message.clients.map(async (requests) => {
        const out = [];
        for (const request of requests) {
          out.push({ ...(await timed(request)), tag: request.tag });
          // A person reads the page before asking for the next one.
          if (message.thinkMs) await new Promise((resolve) => setTimeout(resolve, message.thinkMs * (0.5 + Math.random())));
        }
        return out;
      }),
    );
    reply({ id: message.id, results });
  } catch (error) {
    reply({ id: message.id, error: String(error) });
  }
});
