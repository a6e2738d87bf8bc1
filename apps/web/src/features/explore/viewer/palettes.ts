// The explorer's palettes live in @cellcloud/formats (shared with the server's figure export, issue 21).
export * from '@cellcloud/formats/palettes';
