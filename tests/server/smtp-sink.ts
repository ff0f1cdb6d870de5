import { createServer, type Socket } from 'node:net';

export interface SunkMessage {
  from: string;
  to: string[];
  data: string;
}

/**
 * A tiny SMTP server in the test process: enough of RFC 5321 for nodemailer (EHLO, MAIL, RCPT,
 * DATA, RSET, QUIT, no STARTTLS), keeping what it receives. Recipients in `refuse` get a 550.
 */
export async function startSmtpSink(refuse: readonly string[] = []) {
  const messages: SunkMessage[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = '';
    let inData = false;
    let current: SunkMessage = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink.test ESMTP');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
          buffer = buffer.slice(end + 5);
          inData = false;
          messages.push(current);
          reply(`250 OK queued as sink-${messages.length}`);
          current = { from: '', to: [], data: '' };
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250-sink.test\r\n250 8BITMIME');
        else if (verb === 'MAIL') {
          current = { from: /<([^>]*)>/.exec(line)?.[1] ?? '', to: [], data: '' };
          reply('250 OK');
        } else if (verb === 'RCPT') {
          const to = /<([^>]*)>/.exec(line)?.[1] ?? '';
          if (refuse.includes(to)) reply('550 No such user');
          else {
            current.to.push(to);
            reply('250 OK');
          }
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET') reply('250 OK');
        else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else reply('502 Command not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
