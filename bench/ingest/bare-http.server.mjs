// The bare-http ceiling: a node:http server that reads each body completely and answers 202
// with the gateway's success body, and nothing else. The gateway is measured against it.
import http from 'node:http';

const port = Number(process.argv[2] ?? 28090);
const accepted = Buffer.from('{"status":"accepted"}');
const server = http.createServer((req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    res.writeHead(202, { 'content-type': 'application/json', 'content-length': accepted.length });
    res.end(accepted);
  });
});
server.listen(port, '127.0.0.1', () => process.send?.('listening'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
