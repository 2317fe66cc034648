; Inno Setup script: wraps the PyInstaller one-folder bundle (dist\portal-admin) in an installer.
; Built, installed silently, run and uninstalled under Wine by packaging/windows/wine.sh
; (installer, install, self-check, uninstall); docs/packaging.md says what that does not test.
;   iscc /DAppVersion=X.Y.Z /DNumericVersion=X.Y.Z.0 packaging\windows\portal-admin.iss
; Per machine (Program Files, needs administrator rights) or per user (no elevation), chosen in
; the wizard or on the command line: /ALLUSERS or /CURRENTUSER. Silent: /VERYSILENT
; /SUPPRESSMSGBOXES /NORESTART; the uninstaller takes /VERYSILENT too.
#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#ifndef NumericVersion
  #define NumericVersion "0.0.0.0"
#endif

[Setup]
AppId={{7F3C2B9E-6E2A-4D63-9C1F-2B5E8A4D7C11}
AppName=Portal Admin
AppVersion={#AppVersion}
AppVerName=Portal Admin {#AppVersion}
AppPublisher=portal-admin developers
; The version in the setup's own file properties (Explorer, Details); portal-admin.exe carries
; its own (packaging/windows/version_info.py).
VersionInfoVersion={#NumericVersion}
VersionInfoProductVersion={#NumericVersion}
VersionInfoProductTextVersion={#AppVersion}
VersionInfoDescription=Portal Admin setup
VersionInfoCopyright=portal-admin developers, Apache-2.0
DefaultDirName={autopf}\Portal Admin
DefaultGroupName=Portal Admin
DisableProgramGroupPage=yes
; The licence, shown before installing (the third-party notices are installed beside it).
LicenseFile=..\..\LICENSE
OutputDir=..\..\dist
OutputBaseFilename=portal-admin-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
; Administrators install for every user (the default); anyone may install for themselves only.
PrivilegesRequired=admin
PrivilegesRequiredOverridesAllowed=commandline dialog
UninstallDisplayIcon={app}\portal-admin.exe
UninstallDisplayName=Portal Admin {#AppVersion}
WizardStyle=modern

[Languages]
Name: "en"; MessagesFile: "compiler:Default.isl"
Name: "ja"; MessagesFile: "compiler:Languages\Japanese.isl"

[Files]
; The bundle already holds LICENSE and THIRD-PARTY-NOTICES.txt; the licence is installed as
; LICENSE.txt so that Windows opens it with a text editor.
Source: "..\..\dist\portal-admin\*"; DestDir: "{app}"; Excludes: "LICENSE"; Flags: recursesubdirs ignoreversion
Source: "..\..\LICENSE"; DestDir: "{app}"; DestName: "LICENSE.txt"; Flags: ignoreversion

[Icons]
Name: "{group}\Portal Admin"; Filename: "{app}\portal-admin.exe"
Name: "{group}\Licence"; Filename: "{app}\LICENSE.txt"
Name: "{group}\Third-party notices"; Filename: "{app}\THIRD-PARTY-NOTICES.txt"
Name: "{autodesktop}\Portal Admin"; Filename: "{app}\portal-admin.exe"; Tasks: desktopicon

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; Flags: unchecked

[Run]
Filename: "{app}\portal-admin.exe"; Description: "{cm:LaunchProgram,Portal Admin}"; Flags: nowait postinstall skipifsilent
