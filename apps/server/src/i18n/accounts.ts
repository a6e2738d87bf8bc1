import { registerMessages } from './translate';

/**
 * Messages of the accounts area: the contracts' validation keys (packages/contracts/src/account.ts
 * uses them as zod messages, so validation errors are translated), account errors and mails.
 */
const en = {
  'validation.required': 'This field is required.',
  'validation.tooLong': 'This field is too long.',
  'validation.username.length': 'The user name must be 3 to 50 characters long.',
  'validation.username.spaces': 'The user name must not contain spaces.',
  'validation.username.leadingDigit': 'The user name must not start with a digit.',
  'validation.username.special': 'The user name may contain only letters, digits and underscores.',
  'validation.password.rule':
    'The password must be 6 to 16 characters with at least one uppercase letter and one digit.',
  'validation.password.min': 'The password must be at least 6 characters.',
  'validation.password.mismatch': 'Passwords do not match',
  'validation.email.required': 'Please enter your e-mail address.',
  'validation.email.invalid': 'Please enter a valid e-mail address.',
  'validation.phone.invalid':
    'Please enter a valid phone number (digits, spaces, +, - and parentheses, 5 to 20 characters).',
  'validation.code.invalid': 'The e-mail code has 6 digits.',
  'validation.terms.required': 'Please read and accept the terms of use and the privacy policy.',
  'validation.login.required': 'Please enter your user name or e-mail address.',
  'account.register.ok': 'Registration successful',
  'account.username.taken': 'This user name is already registered. Please choose another one.',
  'account.email.taken': 'This e-mail address is already registered. Log in, or reset your password.',
  'account.phone.taken': 'This phone number is already registered.',
  'account.email.unknown': 'No account uses this e-mail address. Check it, or sign up.',
  'account.email.same': 'This is already your e-mail address.',
  'account.code.missing': 'No code was sent to this address for this step. Click "Send code" first.',
  'account.code.wrong': 'The e-mail code is wrong. Use the code of the latest e-mail.',
  'account.code.expired':
    'The e-mail code has expired (codes are valid for 2 hours). Please request a new one.',
  'account.code.used': 'This e-mail code was already used. Please request a new one.',
  'account.code.tooManyAttempts': 'Too many wrong codes. Please request a new code.',
  'account.code.sent': 'A verification code was sent to {email}.',
  'account.code.sendFailed': 'The e-mail could not be sent. Please try again later or contact support.',
  'account.login.invalid': 'Wrong user name, e-mail or password.',
  'account.login.ok': 'Login successful',
  'account.disabled': 'This account is disabled. Please contact support.',
  'account.password.oldWrong': 'The current password is wrong.',
  'account.password.updated': 'Your password was changed.',
  'account.email.updated': 'Your e-mail address was changed.',
  'account.signedOut': 'You have signed out.',
  'account.contact.ok': 'Thank you, we received your message and will reply by e-mail.',
  'mail.code.subject.register': 'CellCloud: your registration code',
  'mail.code.subject.reset': 'CellCloud: your password reset code',
  'mail.code.subject.changeEmail': 'CellCloud: confirm your new e-mail address',
  'mail.code.body':
    'Your CellCloud verification code is {code}.\n\nIt is valid for 2 hours. If you did not request it, you can ignore this e-mail; nobody can use your account without it.\n\nCellCloud',
  'mail.contact.subject': '[CellCloud contact] {subject}',
  'drawings.tooLarge':
    'The drawing is too large ({size} MB; the limit is {limit} MB). Remove some embedded images and save again.',
};

const zh: Record<keyof typeof en, string> = {
  'validation.required': '此项为必填项。',
  'validation.tooLong': '此项内容过长。',
  'validation.username.length': '用户名长度须为 3 到 50 个字符。',
  'validation.username.spaces': '用户名不能包含空格。',
  'validation.username.leadingDigit': '用户名不能以数字开头。',
  'validation.username.special': '用户名只能包含字母、数字和下划线。',
  'validation.password.rule': '密码须为 6 到 16 个字符，且至少包含一个大写字母和一个数字。',
  'validation.password.min': '密码至少 6 个字符。',
  'validation.password.mismatch': '两次输入的密码不一致',
  'validation.email.required': '请输入电子邮箱地址。',
  'validation.email.invalid': '请输入有效的电子邮箱地址。',
  'validation.phone.invalid': '请输入有效的电话号码（数字、空格、+、- 和括号，5 到 20 个字符）。',
  'validation.code.invalid': '邮箱验证码为 6 位数字。',
  'validation.terms.required': '请阅读并同意用户协议和隐私政策。',
  'validation.login.required': '请输入用户名或电子邮箱。',
  'account.register.ok': '注册成功',
  'account.username.taken': '该用户名已被注册，请换一个。',
  'account.email.taken': '该邮箱已被注册，请直接登录或重置密码。',
  'account.phone.taken': '该电话号码已被注册。',
  'account.email.unknown': '没有使用该邮箱的账号，请检查邮箱或先注册。',
  'account.email.same': '这已经是您当前的邮箱地址。',
  'account.code.missing': '尚未向该邮箱发送此步骤的验证码，请先点击“发送验证码”。',
  'account.code.wrong': '邮箱验证码错误，请使用最新一封邮件中的验证码。',
  'account.code.expired': '邮箱验证码已过期（有效期 2 小时），请重新获取。',
  'account.code.used': '该验证码已使用，请重新获取。',
  'account.code.tooManyAttempts': '验证码错误次数过多，请重新获取验证码。',
  'account.code.sent': '验证码已发送至 {email}。',
  'account.code.sendFailed': '邮件发送失败，请稍后重试或联系客服。',
  'account.login.invalid': '用户名、邮箱或密码错误。',
  'account.login.ok': '登录成功',
  'account.disabled': '该账号已被停用，请联系客服。',
  'account.password.oldWrong': '当前密码错误。',
  'account.password.updated': '密码已修改。',
  'account.email.updated': '邮箱地址已修改。',
  'account.signedOut': '您已退出登录。',
  'account.contact.ok': '感谢您的留言，我们会通过邮件回复您。',
  'mail.code.subject.register': '细胞云：注册验证码',
  'mail.code.subject.reset': '细胞云：重置密码验证码',
  'mail.code.subject.changeEmail': '细胞云：确认新的邮箱地址',
  'mail.code.body':
    '您的细胞云验证码为 {code}。\n\n有效期 2 小时。如果不是您本人操作，请忽略此邮件；没有验证码，任何人都无法使用您的账号。\n\n细胞云 CellCloud',
  'mail.contact.subject': '[细胞云 联系我们] {subject}',
  'drawings.tooLarge': '画布内容过大（{size} MB，上限 {limit} MB），请删除部分嵌入图片后重新保存。',
};

registerMessages({ 'en-US': en, 'zh-CN': zh });

export type AccountMessageKey = keyof typeof en;
