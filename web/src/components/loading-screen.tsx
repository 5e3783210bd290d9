import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';

/** Shown while the session or a screen is being prepared. */
export function LoadingScreen({ inline = false }: { inline?: boolean }) {
  return (
    <Box
      role="progressbar"
      aria-busy="true"
      sx={{
        flexGrow: 1,
        minHeight: inline ? 240 : '100vh',
        width: 1,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        px: 5,
      }}
    >
      <LinearProgress color="inherit" sx={{ width: 1, maxWidth: 360 }} />
    </Box>
  );
}
