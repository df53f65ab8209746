// The most common passwords of public breach lists that are 8+ characters long: refused outright.
const COMMON = new Set(
  `12345678 123456789 1234567890 password password1 password123 qwertyui qwerty123 qwertyuiop 11111111 00000000
  iloveyou 1q2w3e4r 1q2w3e4r5t 12341234 87654321 abcd1234 abc12345 admin123 administrator sunshine princess
  football baseball welcome1 welcome123 trustno1 superman passw0rd p@ssw0rd letmein1 zaq12wsx 1qaz2wsx qazwsxedc
  asdfghjkl 123123123 987654321 11223344 99999999 88888888 12121212 senha123 senha1234 mudar123 brasil123 flamengo
  corinthians palmeiras 123mudar changeme master123 dragon123 monkey123 batman123 starwars whatever computer
  internet michelle jennifer 1234qwer qwer1234 q1w2e3r4 q1w2e3r4t5 a1b2c3d4 aa123456 test1234 testtest 66666666`
    .split(/\s+/)
    .filter(Boolean),
);

export function passwordProblem(password: string): string | null {
  if (password.length < 8) return 'must have at least 8 characters';
  if (COMMON.has(password.toLowerCase())) return 'is too common';
  if (/^(.)\1+$/.test(password)) return 'is too common';
  return null;
}
