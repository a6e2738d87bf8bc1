import { registerMessages } from './translate';

/** Messages of the security guards (issue 12): request strings, rate limits, conversions, parse limits. */
const en: Record<string, string> = {
  'request.badCharacters':
    'Invalid request: {field} contains invalid characters (a NUL control character or a broken Unicode character). Remove them and try again.',
  'account.code.sentReset':
    'If an account uses {email}, a verification code has been sent to it. Check your inbox (and spam folder).',
  'tiff.tooLarge':
    'The image is too large to convert to TIFF ({pixels} pixels; at most {max}). Export a smaller chart or use PNG/SVG.',
  'tiff.busy': 'The server is converting other images right now. Please try again in a few seconds.',
  'tiff.failed': 'The chart could not be converted to TIFF: the SVG is not valid.',
  'files.failed.attempts':
    'Parsing was interrupted {attempts} times (the server stopped or the parse ran out of memory), so it was not started again. Click Retry to try once more, or upload a smaller or repaired file.',
  'files.failed.timeout':
    'Parsing was stopped after {minutes} minutes: the file may be damaged (e.g. a corrupted HDF5 file). Check the file and upload it again, or click Retry.',
  'files.failed.tooLarge':
    'The file needs more memory to parse than this server allows ({memory}). Split it into smaller samples, or ask the administrator to raise INGEST_MEMORY_MB.',
};

const zh: Record<string, string> = {
  'request.badCharacters':
    '请求无效：{field} 含有非法字符（NUL 控制字符或损坏的 Unicode 字符），请删除后重试。',
  'account.code.sentReset': '如果有账号使用 {email}，验证码已发送到该邮箱，请查收（包括垃圾邮件箱）。',
  'tiff.tooLarge': '图像过大，无法转换为 TIFF（{pixels} 像素，最多 {max}）。请导出较小的图表或使用 PNG/SVG。',
  'tiff.busy': '服务器正在转换其他图像，请几秒后重试。',
  'tiff.failed': '无法将图表转换为 TIFF：SVG 无效。',
  'files.failed.attempts':
    '解析已中断 {attempts} 次（服务器停止或解析内存不足），因此不再自动重新开始。点击“重试”再试一次，或上传更小或已修复的文件。',
  'files.failed.timeout':
    '解析在 {minutes} 分钟后被停止：文件可能已损坏（例如 HDF5 文件损坏）。请检查文件后重新上传，或点击“重试”。',
  'files.failed.tooLarge':
    '解析该文件所需内存超过本服务器允许的上限（{memory}）。请拆分为较小的样本，或请管理员调高 INGEST_MEMORY_MB。',
};

registerMessages({ 'en-US': en, 'zh-CN': zh });
