; Inno Setup script: wraps the PyInstaller one-folder bundle (dist\portal-admin) in an installer.
; Untested here (no Windows machine): built by .github/workflows/installers.yml on windows-latest.
; The version is passed by the workflow: iscc /DAppVersion=X.Y.Z packaging\windows\portal-admin.iss
#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif

[Setup]
AppId={{7F3C2B9E-6E2A-4D63-9C1F-2B5E8A4D7C11}
AppName=Portal Admin
AppVersion={#AppVersion}
AppPublisher=portal-admin developers
DefaultDirName={autopf}\Portal Admin
DefaultGroupName=Portal Admin
OutputDir=..\..\dist
OutputBaseFilename=portal-admin-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
ArchitecturesInstallIn64BitMode=x64compatible
PrivilegesRequiredOverridesAllowed=dialog
WizardStyle=modern

[Languages]
Name: "en"; MessagesFile: "compiler:Default.isl"
Name: "ja"; MessagesFile: "compiler:Languages\Japanese.isl"

[Files]
Source: "..\..\dist\portal-admin\*"; DestDir: "{app}"; Flags: recursesubdirs ignoreversion

[Icons]
Name: "{group}\Portal Admin"; Filename: "{app}\portal-admin.exe"
Name: "{autodesktop}\Portal Admin"; Filename: "{app}\portal-admin.exe"; Tasks: desktopicon

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; Flags: unchecked

[Run]
Filename: "{app}\portal-admin.exe"; Description: "{cm:LaunchProgram,Portal Admin}"; Flags: nowait postinstall skipifsilent
