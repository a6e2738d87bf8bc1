import { registerMessages } from './translate';

/** Messages of the security guards (issue 12): request strings, rate limits, conversions, parse limits. */
const en: Record<string, string> = {
  'request.badCharacters': 'Invalid request: {field} contains invalid characters (a NUL control character or a broken Unicode character). Remove them and try again.',
  'account.code.sentReset': 'If an account uses {email}, a verification code has been sent to it. Check your inbox (and spam folder).',
  'tiff.tooLarge': 'The image is too large to convert to TIFF ({pixels} pixels; at most {max}). Export a smaller chart or use PNG/SVG.',
  'tiff.busy': 'The server is converting other images right now. Please try again in a few seconds.',
  'tiff.failed': 'The chart could not be converted to TIFF: the SVG is not valid.',
};

const zh: Record<string, string> = {
  'request.badCharacters': '请求无效：{field} 含有非法字符（NUL 控制字符或损坏的 Unicode 字符），请删除后重试。',
  'account.code.sentReset': '如果有账号使用 {email}，验证码已发送到该邮箱，请查收（包括垃圾邮件箱）。',
  'tiff.tooLarge': '图像过大，无法转换为 TIFF（{pixels} 像素，最多 {max}）。请导出较小的图表或使用 PNG/SVG。',
  'tiff.busy': '服务器正在转换其他图像，请几秒后重试。',
  'tiff.failed': '无法将图表转换为 TIFF：SVG 无效。',
};

registerMessages({ 'en-US': en, 'zh-CN': zh });
