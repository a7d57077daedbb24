export { clientAddress, compileProxyTrust, peerIsTrusted, type ProxyTrust } from './trusted-proxies.js';
export { REQUEST_ID_HEADER, requestIdFor, withRequestId } from './request-id.js';
