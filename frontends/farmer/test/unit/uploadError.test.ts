import { describe, expect, it } from 'vitest';
import { uploadError } from '../../src/add-product/uploadPhoto.js';
import { messageOf } from '../../src/shared/messages.js';

describe('upload errors become the message of "Failed to upload image: {message}"', () => {
  it("takes the media service's message", () => {
    const body = JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'This file is not an image we can read.' });
    const error = uploadError(400, 'Bad Request', body);
    expect(error).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'This file is not an image we can read.' });
  });
  it("explains the gateway's HTML 413 page", () => {
    expect(uploadError(413, 'Request Entity Too Large', '<html>413</html>').message).toBe('The photo is too large (at most 10 MB)');
  });
  it('says the server could not be reached when the connection failed', () => {
    expect(uploadError(0, '', '').message).toBe('The server could not be reached');
  });
  it('falls back to the status for anything else', () => {
    expect(uploadError(502, 'Bad Gateway', '').message).toBe('Request failed with status 502');
  });
});

describe('messageOf', () => {
  it('reads errors, strings, and says "Unknown error" otherwise', () => {
    expect(messageOf(new Error('boom'))).toBe('boom');
    expect(messageOf('plain')).toBe('plain');
    expect(messageOf(undefined)).toBe('Unknown error');
  });
});
