/** SHA-256 of no bytes: the content digest of zero events and the cassette digest of zero entries. */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
