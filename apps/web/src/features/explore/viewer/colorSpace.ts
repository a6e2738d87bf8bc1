// The explorer's colour maths lives in @cellcloud/formats (shared with the server's figure export, issue 21).
export * from '@cellcloud/formats/color-space';
