import { describe, expect, it } from 'vitest';
import { redirectUriProblem } from './redirect-uri.policy.js';

describe('redirect URI policy', () => {
  it.each([
    'https://tool.example.com/callback',
    'https://localhost/cb',
    'http://127.0.0.1:33418/callback',
    'http://[::1]:8080/cb',
    'http://localhost:5173/oauth/callback?x=1',
  ])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeUndefined();
  });

  it.each([
    ['http://tool.example.com/callback', /https/],
    ['http://localhost.evil.example/cb', /https/],
    ['http://127.0.0.1.nip.io/cb', /https/],
    ['http://10.0.0.5/cb', /https/],
    ['myapp://callback', /https/],
    ['javascript:alert(1)', /https/],
    ['https://tool.example.com/cb#frag', /fragment/],
    ['https://user:pw@tool.example.com/cb', /credentials/],
    ['/relative', /absolute/],
    [42, /string/],
  ])('refuses %s', (uri, reason) => {
    expect(redirectUriProblem(uri)).toMatch(reason);
  });
});
