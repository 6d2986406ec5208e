import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyOf, bytesOf, rebuildResponse, requestBodyBytes, responseRecord } from './http-body.js';

describe('bodyOf and bytesOf', () => {
  it('any bytes round-trip exactly', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(Buffer.from(bytesOf(bodyOf(bytes))).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('valid UTF-8 is stored as text (a BOM kept), anything else as base64', () => {
    expect(bodyOf(Buffer.from('héllo ✓'))).toEqual({ text: 'héllo ✓' });
    expect(bodyOf(Buffer.from('\uFEFFbom'))).toEqual({ text: '\uFEFFbom' });
    expect(bodyOf(new Uint8Array())).toEqual({ text: '' });
    expect(bodyOf(new Uint8Array([0xc3]))).toEqual({ base64: 'ww==' });
    expect(bodyOf(new Uint8Array([0xed, 0xa0, 0x80]))).toEqual({ base64: '7aCA' }); // an encoded surrogate
  });
});

describe('requestBodyBytes', () => {
  it('reads the body from a clone, so the request can still be sent', async () => {
    const request = new Request('http://example.test/', { method: 'POST', body: 'payload' });
    expect(Buffer.from(await requestBodyBytes(request)).toString()).toBe('payload');
    expect(await request.text()).toBe('payload');
    expect(await requestBodyBytes(new Request('http://example.test/'))).toEqual(new Uint8Array());
  });
});

describe('responseRecord and rebuildResponse', () => {
  it('records status, status text, headers but credentials and body, and hands back an equal response', async () => {
    const original = new Response(new Uint8Array([1, 2, 255]), {
      status: 202,
      statusText: 'Accepted',
      headers: {
        'x-a': '1',
        'content-type': 'application/octet-stream',
        'set-cookie': 'sid=1',
        'content-length': '3',
      },
    });
    const { output, replacement } = await responseRecord(original);
    expect(output).toEqual({
      status: 202,
      status_text: 'Accepted',
      headers: { 'x-a': '1', 'content-type': 'application/octet-stream' },
      body: { base64: Buffer.from([1, 2, 255]).toString('base64') },
    });
    expect(replacement.status).toBe(202);
    expect(replacement.statusText).toBe('Accepted');
    expect(replacement.headers.get('x-a')).toBe('1');
    expect(replacement.headers.get('set-cookie')).toBe('sid=1');
    expect([...new Uint8Array(await replacement.arrayBuffer())]).toEqual([1, 2, 255]);
  });

  it('keeps the url, and gives bodiless statuses no body', async () => {
    const rebuilt = rebuildResponse(
      'http://example.test/x',
      204,
      'No Content',
      {},
      new Uint8Array(),
    );
    expect(rebuilt.url).toBe('http://example.test/x');
    expect(rebuilt.body).toBeNull();
    expect(rebuildResponse('', 200, 'OK', {}, new Uint8Array([104, 105])).url).toBe('');
    expect(await rebuildResponse('', 200, 'OK', {}, new Uint8Array([104, 105])).text()).toBe('hi');
  });
});
