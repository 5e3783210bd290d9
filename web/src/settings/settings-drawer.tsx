import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { alpha } from '@mui/material/styles';
import CloseIcon from '@mui/icons-material/Close';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import { swatchColor } from '../theme/palette';
import { useSettings } from './context';
import { COLOR_PRESETS, SETTINGS_DRAWER_WIDTH, STRETCH_MIN_WIDTH, type Settings } from './types';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mb: 3 }}>
      <Typography variant="overline" component="h3" sx={{ display: 'block', mb: 1, color: 'text.secondary' }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

interface ChoiceProps<K extends keyof Settings> {
  name: K;
  options: { value: Settings[K]; label: string }[];
}

function Choice<K extends keyof Settings>({ name, options }: ChoiceProps<K>) {
  const settings = useSettings();
  return (
    <Box role="radiogroup" sx={{ display: 'grid', gridTemplateColumns: `repeat(${options.length}, 1fr)`, gap: 1 }}>
      {options.map((option) => {
        const selected = settings[name] === option.value;
        return (
          <ButtonBase
            key={String(option.value)}
            role="radio"
            aria-checked={selected}
            data-testid={`setting-${name}-${String(option.value)}`}
            onClick={() => settings.onUpdate({ [name]: option.value } as Partial<Settings>)}
            sx={{
              py: 1.5,
              borderRadius: 1.5,
              border: (theme) => `1px solid ${selected ? theme.palette.primary.main : alpha(theme.palette.grey[500], 0.24)}`,
              color: selected ? 'primary.main' : 'text.secondary',
              bgcolor: (theme) => (selected ? alpha(theme.palette.primary.main, 0.08) : 'transparent'),
              typography: 'body2',
              fontWeight: 600,
            }}
          >
            {option.label}
          </ButtonBase>
        );
      })}
    </Box>
  );
}

function useFullscreen() {
  const [fullscreen, setFullscreen] = useState(() => Boolean(document.fullscreenElement));
  useEffect(() => {
    const onChange = () => setFullscreen(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    else void document.documentElement.requestFullscreen?.();
  };
  return { fullscreen, toggle };
}

/** The settings side panel of spec section 2. */
export function SettingsDrawer() {
  const { t } = useTranslation();
  const settings = useSettings();
  const wide = useMediaQuery(`(min-width:${STRETCH_MIN_WIDTH}px)`);
  const { fullscreen, toggle } = useFullscreen();

  return (
    <Drawer
      anchor="right"
      open={settings.open}
      onClose={settings.onClose}
      slotProps={{ paper: { sx: { width: SETTINGS_DRAWER_WIDTH }, 'aria-label': t('settings.title') } as object, backdrop: { invisible: true } }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', py: 2, pr: 1, pl: 2.5 }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {t('settings.title')}
        </Typography>
        <Tooltip title={t('settings.reset')}>
          <span>
            <IconButton aria-label={t('settings.reset')} data-testid="settings-reset" disabled={!settings.canReset} onClick={settings.onReset}>
              <RestartAltIcon />
            </IconButton>
          </span>
        </Tooltip>
        <IconButton aria-label={t('settings.close')} onClick={settings.onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Box sx={{ px: 2.5, pb: 3, overflowY: 'auto' }}>
        <Section title={t('settings.mode')}>
          <Choice
            name="themeMode"
            options={[
              { value: 'light', label: t('settings.light') },
              { value: 'dark', label: t('settings.dark') },
            ]}
          />
        </Section>
        <Section title={t('settings.contrast')}>
          <Choice
            name="themeContrast"
            options={[
              { value: 'default', label: t('settings.contrastDefault') },
              { value: 'bold', label: t('settings.contrastBold') },
            ]}
          />
        </Section>
        <Section title={t('settings.layout')}>
          <Choice
            name="themeLayout"
            options={[
              { value: 'vertical', label: t('settings.vertical') },
              { value: 'horizontal', label: t('settings.horizontal') },
              { value: 'mini', label: t('settings.mini') },
            ]}
          />
        </Section>
        <Section title={t('settings.stretch')}>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
            <Typography variant="caption" sx={{ color: 'text.secondary', pr: 1 }}>
              {t('settings.stretchHint')}
            </Typography>
            <Switch
              checked={settings.themeStretch}
              disabled={!wide}
              onChange={(event) => settings.onUpdate({ themeStretch: event.target.checked })}
              slotProps={{ input: { 'aria-label': t('settings.stretch') } }}
            />
          </Box>
        </Section>
        <Section title={t('settings.presets')}>
          <Box role="radiogroup" sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 1 }}>
            {COLOR_PRESETS.map((preset) => {
              const selected = settings.themeColorPresets === preset;
              const color = swatchColor(preset, settings.themeMode);
              return (
                <Tooltip key={preset} title={t(`settings.preset.${preset}`)}>
                  <ButtonBase
                    role="radio"
                    aria-checked={selected}
                    aria-label={t(`settings.preset.${preset}`)}
                    data-testid={`setting-preset-${preset}`}
                    onClick={() => settings.onUpdate({ themeColorPresets: preset })}
                    sx={{
                      height: 56,
                      borderRadius: 1.5,
                      border: `1px solid ${selected ? color : alpha(color, 0.24)}`,
                      bgcolor: selected ? alpha(color, 0.08) : 'transparent',
                    }}
                  >
                    <Box sx={{ width: selected ? 24 : 14, height: selected ? 24 : 14, borderRadius: '50%', bgcolor: color, transition: 'all .2s' }} />
                  </ButtonBase>
                </Tooltip>
              );
            })}
          </Box>
        </Section>
        <Button
          fullWidth
          size="large"
          color="inherit"
          variant="outlined"
          startIcon={fullscreen ? <FullscreenExitIcon /> : <FullscreenIcon />}
          onClick={toggle}
        >
          {fullscreen ? t('settings.exitFullscreen') : t('settings.fullscreen')}
        </Button>
      </Box>
    </Drawer>
  );
}
