// Holds the live-changes bench's open event streams in a process of its own: 500 clients' sockets
// and parsing must not run on the event loop that times the list requests (bench/live-changes.bench.ts).
// It stays up for the whole bench and opens or closes its streams when told ('open', 'close'),
// answering each with { streams, events } (the events its streams have read so far), so the bench
// alternates rounds with and without streams without starting a process each time.
import http from 'node:http';

const [port, token, count] = [Number(process.argv[2]), process.argv[3], Number(process.argv[4])];
let events = 0;
let requests = [];

function open() {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path: '/api/events', agent: false, headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
        response.setEncoding('utf8');
        response.on('data', (chunk) => (events += chunk.split('\ndata: ').length - 1));
        resolve();
      },
    );
    request.on('error', reject);
    request.end();
    requests.push(request);
  });
}

process.on('message', async (message) => {
  if (message === 'open') for (let index = 0; index < count; index++) await open();
  if (message === 'close') {
    requests.forEach((request) => request.destroy());
    requests = [];
  }
  process.send?.({ streams: requests.length, events });
});
process.on('SIGTERM', () => {
  requests.forEach((request) => request.destroy());
  process.exit(0);
});
process.send?.({ streams: 0, events });
