// An amount against what was expected (a collection's over or short, a settlement's difference):
// signed, and coloured by the same rule everywhere: less in red, more in amber, exact in green.
import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import { formatMoney } from '../money';
import { Spoken } from '../spoken';

/** "+€12.00", "-€289.20", "€0.00". */
export function formatSignedMoney(minor: number, currency: string, language: string): string {
  const amount = formatMoney(minor, currency, language);
  return minor > 0 ? `+${amount}` : amount;
}

/** The chip's colour: less in red, more in amber (money nobody accounts for is a finding too), exact in green. */
export function signedColor(minor: number): 'error' | 'warning' | 'success' {
  return minor < 0 ? 'error' : minor > 0 ? 'warning' : 'success';
}

interface SignedMoneyChipProps {
  minor: number;
  currency: string;
  /** The sentence a screen reader hears instead of the chip ("Short by €2.00"), also its tooltip. */
  spoken: string;
  testId: string;
  /** `data-tone`, for the screen's own name of the sign. */
  tone?: string;
}

/** The signed amount on a coloured chip (outlined when exact), with its sentence for screen readers. */
export function SignedMoneyChip({ minor, currency, spoken, testId, tone }: SignedMoneyChipProps) {
  const { i18n } = useTranslation();
  return (
    <Spoken text={spoken}>
      <Chip
        size="small"
        color={signedColor(minor)}
        variant={minor === 0 ? 'outlined' : 'filled'}
        label={formatSignedMoney(minor, currency, i18n.language)}
        title={spoken}
        data-tone={tone}
        data-testid={testId}
      />
    </Spoken>
  );
}
