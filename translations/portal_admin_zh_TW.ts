<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_TW">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/about.py" line="+76"/>
        <location line="+2"/>
        <source>Third-party notices</source>
        <translation>第三方聲明</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This copy was not built with its third-party notices: they are written when the installers are built (packaging/build.py).</source>
        <translation>此副本建置時未附帶第三方聲明：第三方聲明在建置安裝程式時產生（packaging/build.py）。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>About System Portal Admin</source>
        <extracomment>&quot;&quot; while the key is read; None: it can be neither read nor made. Where the key is kept (``keys.KeyPlace``), once read.</extracomment>
        <translation>關於 System Portal Admin</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System Portal Admin</source>
        <translation>System Portal Admin</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Version %1</source>
        <translation>版本 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Desktop administration for the System Portal, with a built-in sandbox server.</source>
        <translation>System Portal 桌面管理程式，內建沙箱伺服器。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Licensed under the %1 (%2).</source>
        <translation>依據 %1（%2）授權。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Third-party notices…</source>
        <translation>第三方聲明…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Qt %1 (PySide6 %2), Python %3</source>
        <translation>Qt %1（PySide6 %2），Python %3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Qt and Python versions</source>
        <translation>Qt 與 Python 版本</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Evidence signing key: reading…</source>
        <translation>證據簽署金鑰：正在讀取…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Evidence signing key: none (it can be neither read nor made on this computer)</source>
        <translation>證據簽署金鑰：無（在這台電腦上既無法讀取也無法建立）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Evidence signing key: %1</source>
        <translation>證據簽署金鑰：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Kept in the key file %1, readable by you only (this computer has no usable keyring).</source>
        <translation>保存在金鑰檔案 %1 中，只有您能讀取（這台電腦沒有可用的金鑰圈）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Kept in the system keyring.</source>
        <translation>保存在系統金鑰圈中。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Evidence signing key fingerprint</source>
        <translation>證據簽署金鑰指紋</translation>
    </message>
</context>
<context>
    <name>AccountColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_model.py" line="+28"/>
        <source>Email</source>
        <translation>電子郵件</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Portal</source>
        <translation>入口網站</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Phone</source>
        <translation>電話</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Language</source>
        <translation>語言</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Time zone</source>
        <translation>時區</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Country</source>
        <translation>國家/地區</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Created</source>
        <translation>建立時間</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Updated</source>
        <translation>更新時間</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>AccountFilters</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_filter_bar.py" line="+133"/>
        <source>&amp;Institution:</source>
        <translation>機構(&amp;I)：</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>&amp;Name:</source>
        <translation>名稱(&amp;N)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Portal:</source>
        <translation>入口網站(&amp;P)：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A word of the name…</source>
        <translation>名稱中的字詞…</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Account filters</source>
        <translation>帳號篩選條件</translation>
    </message>
    <message>
        <location line="-131"/>
        <location line="+112"/>
        <source>Any portal</source>
        <extracomment>How long typing must pause before the list is queried again.</extracomment>
        <translation>所有入口網站</translation>
    </message>
    <message>
        <location line="-108"/>
        <location line="+109"/>
        <source>Any status</source>
        <translation>所有狀態</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Clear every filter</source>
        <translation>清除所有篩選條件</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Clear filters</source>
        <translation>清除篩選</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>E&amp;mail:</source>
        <translation>電子郵件(&amp;M)：</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Filter by email</source>
        <translation>依電子郵件篩選</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Filter by institution id</source>
        <translation>依機構 ID 篩選</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Filter by name</source>
        <translation>依名稱篩選</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Filter by portal</source>
        <translation>依入口網站篩選</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by status</source>
        <translation>依狀態篩選</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>Institution id</source>
        <translation>機構 ID</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>S&amp;tatus:</source>
        <translation>狀態(&amp;T)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Starts with…</source>
        <translation>開頭為…</translation>
    </message>
</context>
<context>
    <name>AccountsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_text.py" line="+16"/>
        <source>Activate</source>
        <extracomment>Status actions in display order, with the button text and the confirm button text.</extracomment>
        <translation>啟用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activate account</source>
        <translation>啟用帳號</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activate the account %1? It can sign in again afterwards.</source>
        <translation>要啟用帳號 %1 嗎？啟用後此帳號即可重新登入。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Suspend</source>
        <translation>停權</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend account</source>
        <translation>停權帳號</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend the account %1? It is signed out and cannot sign in until it is activated again.</source>
        <translation>要停權帳號 %1 嗎？此帳號會被強制登出，在重新啟用前無法登入。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Deactivate</source>
        <translation>停用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate account</source>
        <translation>停用帳號</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate the account %1? It is signed out and cannot sign in until it is activated again.</source>
        <translation>要停用帳號 %1 嗎？此帳號會被強制登出，在重新啟用前無法登入。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The account %1 was activated.</source>
        <extracomment>What a status action did, said as a sentence naming the account.</extracomment>
        <translation>帳號 %1 已啟用。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The account %1 was suspended.</source>
        <translation>帳號 %1 已停權。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The account %1 was deactivated.</source>
        <translation>帳號 %1 已停用。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The status of the account %1 was changed.</source>
        <translation>帳號 %1 的狀態已變更。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+404"/>
        <source>%1: %2 → %3</source>
        <translation>%1：%2 → %3</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+196"/>
        <source>&amp;Country:</source>
        <translation>國家/地區(&amp;C)：</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>&amp;Language:</source>
        <translation>語言(&amp;L)：</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>&amp;Name:</source>
        <translation>名稱(&amp;N)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Phone:</source>
        <translation>電話(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+123"/>
        <source>&amp;Reason (optional):</source>
        <translation>原因（選填）(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+4"/>
        <source>&amp;Remark:</source>
        <translation>備註(&amp;R)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Time zone:</source>
        <translation>時區(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-69"/>
        <source>A password reset link was mailed to %1.</source>
        <translation>密碼重設連結已寄至 %1。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+258"/>
        <source>Account</source>
        <translation>帳號</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+27"/>
        <source>Account being edited</source>
        <translation>正在編輯的帳號</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-39"/>
        <location line="+46"/>
        <source>Account details</source>
        <translation>帳號詳細資料</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>Account id</source>
        <translation>帳號 ID</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_panel.py" line="+196"/>
        <source>Account id to open</source>
        <translation>要開啟的帳號 ID</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Account id, e.g. ACC…</source>
        <translation>帳號 ID，例如 ACC…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-42"/>
        <source>Account name</source>
        <translation>帳號名稱</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_panel.py" line="+9"/>
        <source>Accounts</source>
        <translation>帳號</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+40"/>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+7"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-14"/>
        <source>Choose an account to see its details.</source>
        <translation>選擇帳號以檢視詳細資料。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy id</source>
        <translation>複製 ID</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Copy the account id</source>
        <translation>複製帳號 ID</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Copy the account id to the clipboard</source>
        <translation>將帳號 ID 複製到剪貼簿</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-55"/>
        <source>Could not change the status of %1</source>
        <translation>無法變更 %1 的狀態</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Could not reset the password of %1</source>
        <translation>無法重設 %1 的密碼</translation>
    </message>
    <message>
        <location line="+122"/>
        <source>Could not save the account %1</source>
        <translation>無法儲存帳號 %1</translation>
    </message>
    <message>
        <location line="-48"/>
        <source>Country</source>
        <translation>國家/地區</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+15"/>
        <source>Country:</source>
        <translation>國家/地區：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Created:</source>
        <translation>建立時間：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-20"/>
        <source>Default country</source>
        <translation>預設國家/地區</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Default language</source>
        <translation>預設語言</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Default time zone</source>
        <translation>預設時區</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>Edit account</source>
        <translation>編輯帳號</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+11"/>
        <source>Edit the account</source>
        <translation>編輯帳號</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+3"/>
        <source>Edit the account %1</source>
        <translation>編輯帳號 %1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-2"/>
        <source>Edit…</source>
        <translation>編輯…</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Email:</source>
        <translation>電子郵件：</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Id:</source>
        <translation>ID：</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Institution:</source>
        <translation>機構：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-2"/>
        <source>Language</source>
        <translation>語言</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-3"/>
        <source>Language:</source>
        <translation>語言：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-3"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-5"/>
        <source>Name:</source>
        <translation>名稱：</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>No account chosen</source>
        <translation>未選擇帳號</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-24"/>
        <source>Nothing has changed.</source>
        <translation>沒有任何變更。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_panel.py" line="-4"/>
        <source>Open</source>
        <translation>開啟</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>There are no accounts yet.</source>
        <extracomment>Initial column widths (the person can resize; hidden columns keep the default). Shown, the controller starts loading (``controller.start()``).</extracomment>
        <translation>尚無帳號。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No accounts match these filters.</source>
        <translation>沒有符合這些篩選條件的帳號。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Open by id:</source>
        <translation>依 ID 開啟(&amp;O)：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Open the account with this id</source>
        <translation>開啟此 ID 的帳號</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+1"/>
        <source>Phone</source>
        <translation>電話</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+35"/>
        <source>Phone number</source>
        <translation>電話號碼</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-30"/>
        <source>Phone:</source>
        <translation>電話：</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Portal:</source>
        <translation>入口網站：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+4"/>
        <source>Question</source>
        <translation>問題</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Reason for the status change</source>
        <translation>狀態變更原因</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+1"/>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+4"/>
        <source>Remark</source>
        <translation>備註</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+2"/>
        <source>Remark:</source>
        <translation>備註：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-91"/>
        <source>Reset password</source>
        <translation>重設密碼</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+19"/>
        <source>Reset password…</source>
        <translation>重設密碼…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+108"/>
        <location line="+9"/>
        <source>Save changes</source>
        <translation>儲存變更</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+30"/>
        <source>Save the changes</source>
        <translation>儲存變更</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-7"/>
        <source>Save these changes to the account %1?</source>
        <translation>要將這些變更儲存至帳號 %1 嗎？</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+3"/>
        <source>Send a password reset link</source>
        <translation>寄送密碼重設連結</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-108"/>
        <source>Send a password reset link to the account %1? It is mailed to %2.</source>
        <translation>要寄送密碼重設連結給帳號 %1 嗎？連結將寄至 %2。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Send reset link</source>
        <translation>寄送重設連結</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+3"/>
        <source>Status change</source>
        <translation>狀態變更</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-25"/>
        <source>Status:</source>
        <translation>狀態：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="-28"/>
        <source>Status: %1 → %2</source>
        <extracomment>The server accepts a reason of at most this many characters.</extracomment>
        <translation>狀態：%1 → %2</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+51"/>
        <source>The account %1 was saved.</source>
        <translation>帳號 %1 已儲存。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-71"/>
        <source>The name is required.</source>
        <extracomment>Field key -&gt; (client keyword, account attribute).</extracomment>
        <translation>名稱為必填。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+8"/>
        <source>This changes the %1 server “%2”.</source>
        <translation>此操作將影響%1伺服器「%2」。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+33"/>
        <source>Time zone</source>
        <translation>時區</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+5"/>
        <source>Time zone:</source>
        <translation>時區：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+68"/>
        <source>Type to search, e.g. Japan or JP</source>
        <translation>輸入以搜尋，例如 Taiwan 或 TW</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Type to search, e.g. Tokyo or UTC+9</source>
        <translation>輸入以搜尋，例如 Taipei 或 UTC+8</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Type to search; a code not in the list is sent as typed</source>
        <translation>輸入以搜尋；不在清單中的代碼會依原樣送出</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+4"/>
        <source>Updated:</source>
        <translation>更新時間：</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Why actions are unavailable</source>
        <translation>無法執行操作的原因</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+11"/>
        <source>Why, for the audit trail</source>
        <translation>填寫原因，供稽核記錄使用</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-190"/>
        <source>You cannot change the status of your own account.</source>
        <extracomment>The account the detail shows (None: nothing chosen). ErrorInfo of a failure to show in the panel. A translated success text. Filter choices arrived: (portal pairs, status pairs). The panel: it keeps the tasks and knows what the signed-in account may do. The edit dialog while it is open (tests and screenshots look at it).</extracomment>
        <translation>無法變更自己帳號的狀態。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_text.py" line="+18"/>
        <source>“%1” &lt;%2&gt;</source>
        <translation>「%1」&lt;%2&gt;</translation>
    </message>
</context>
<context>
    <name>AdminErrors</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/common.py" line="+21"/>
        <source>The server refused: your role does not allow this action. Ask a workspace owner for the permission.</source>
        <extracomment>Clearer summaries for the codes these panels meet (per-panel overrides win).</extracomment>
        <translation>伺服器拒絕了請求：您的角色不允許執行此操作。請向工作區擁有者申請權限。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not found: the item does not exist (any more), or the id is wrong.</source>
        <translation>找不到：此項目不存在（或已刪除），或 ID 有誤。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+3"/>
        <source>The server did not accept the input. Check the fields and try again.</source>
        <translation>伺服器不接受輸入的內容。請檢查各欄位後再試一次。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your sign-in is no longer valid (code 4010). Sign in again.</source>
        <translation>您的登入已失效（代碼 4010），請重新登入。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>You are not signed in. Sign in again.</source>
        <translation>您尚未登入，請重新登入。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not found (code 4040).</source>
        <translation>找不到（代碼 4040）。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+33"/>
        <source>The server did not accept the portal (code 4000): a portal type and a domain without spaces are required; domain and remark have at most 255 characters each.</source>
        <extracomment>Domain and remark limits (section 8).</extracomment>
        <translation>伺服器不接受此入口網站（代碼 4000）：入口網站類型和網域為必填，網域不可包含空格；網域和備註各不得超過 255 個字元。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server did not accept the portal: a portal type and a domain without spaces are required; domain and remark have at most 255 characters each.</source>
        <translation>伺服器不接受此入口網站：入口網站類型和網域為必填，網域不可包含空格；網域和備註各不得超過 255 個字元。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The institution was not found (code 4040). Check the institution id, or leave it empty to use your own institution.</source>
        <translation>找不到此機構（代碼 4040）。請檢查機構 ID，或留空以使用您自己的機構。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+28"/>
        <source>The server refused: the OWNER role is protected and can never be deleted.</source>
        <extracomment>The 409 answers of role deletion, explained.</extracomment>
        <translation>伺服器拒絕了請求：OWNER 角色受保護，永遠無法刪除。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server refused: the role still has members. Give them another role first, then delete it.</source>
        <translation>伺服器拒絕了請求：此角色仍有成員。請先為他們指派其他角色，再刪除此角色。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The role does not exist any more: someone else deleted it.</source>
        <translation>此角色已不存在：已被其他人刪除。</translation>
    </message>
</context>
<context>
    <name>BackupCodesDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/backup_codes.py" line="+205"/>
        <source>&amp;Copy</source>
        <translation>複製(&amp;C)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Save…</source>
        <translation>儲存(&amp;S)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Backup codes</source>
        <translation>備用碼</translation>
    </message>
    <message>
        <location line="-86"/>
        <source>Copied to the clipboard.</source>
        <translation>已複製到剪貼簿。</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Copy the codes</source>
        <translation>複製備用碼</translation>
    </message>
    <message>
        <location line="-39"/>
        <source>Could not save the file: %1</source>
        <translation>無法儲存檔案：%1</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Keep these codes somewhere safe. Each code signs you in once when you cannot use your other methods. They are shown only now: after you close this window they cannot be shown again. Your previous codes no longer work.</source>
        <translation>請妥善保存這些備用碼。無法使用其他驗證方式時，每組備用碼可用於登入一次。備用碼僅在此時顯示，關閉此視窗後將無法再次查看。您先前的備用碼已失效。</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>New backup codes</source>
        <translation>新的備用碼</translation>
    </message>
    <message>
        <location line="-61"/>
        <source>Save backup codes</source>
        <translation>儲存備用碼</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>Save the codes to a file</source>
        <translation>將備用碼儲存至檔案</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>Saved to %1 (readable by you only).</source>
        <translation>已儲存至 %1（僅您本人可讀取）。</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="-98"/>
        <source>System Portal backup codes (each works once)</source>
        <extracomment>The codes being written (``save_to``, started by the file dialog).</extracomment>
        <translation>System Portal 備用碼（每組僅能使用一次）</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Text files (*.txt)</source>
        <translation>文字檔 (*.txt)</translation>
    </message>
</context>
<context>
    <name>BulkButton</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/menu.py" line="+49"/>
        <source>Bulk changes</source>
        <translation>批次變更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change many rows at once</source>
        <translation>一次變更多列</translation>
    </message>
</context>
<context>
    <name>BulkDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+192"/>
        <source>Lists (*.csv *.txt);;All files (*)</source>
        <extracomment>The bulk windows open now, by job id (the Jobs panel shows a running one again). What a job run in this program changed, besides its area (``OperationRunner.publish``): the Jobs panel reads the job files again on it, and on no other topic. The actions each panel offers. &quot;accounts&quot; or &quot;invitations&quot;. The selected rows&apos; records (``Account`` or ``Invitation``). The account filter&apos;s query arguments (accounts), for &quot;all matching&quot;. How many rows match the filter, when known.</extracomment>
        <translation>清單 (*.csv *.txt);;所有檔案 (*)</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+293"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="-283"/>
        <source>Imported %1</source>
        <translation>已匯入 %1</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Enter the new value.</source>
        <translation>請輸入新值。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Planning…</source>
        <translation>正在擬定計畫…</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>This session is read-only: no bulk change can be planned.</source>
        <translation>此工作階段為唯讀：無法擬定批次變更。</translation>
    </message>
    <message>
        <location line="+104"/>
        <source>This job is being run by another window or program.</source>
        <translation>此工作正由另一個視窗或程式執行。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 of %2: %3 done, %4 failed, %5 skipped, %6 unknown</source>
        <translation>%1 / %2：完成 %3，失敗 %4，略過 %5，結果未知 %6</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Waiting %1 s, then reading back %2 targets whose outcome is unknown (the server may still be applying them)</source>
        <translation>等待 %1 秒後重新讀取 %2 個結果未知的目標（伺服器可能仍在套用這些變更）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 per second, about %2 s left</source>
        <translation>每秒 %1 個，約剩 %2 秒</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Resume</source>
        <translation>繼續</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+137"/>
        <source>Pause</source>
        <translation>暫停</translation>
    </message>
    <message>
        <location line="-97"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 檔案 (*.csv)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Bulk change: %1</source>
        <translation>批次變更：%1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+136"/>
        <source>Suspend</source>
        <translation>停權</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activate</source>
        <translation>啟用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate</source>
        <translation>停用</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Default language</source>
        <translation>預設語言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>時區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>國家/地區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark</source>
        <translation>備註</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Action:</source>
        <translation>操作(&amp;A)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New status:</source>
        <translation>新狀態(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Field:</source>
        <translation>欄位(&amp;F)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Value:</source>
        <translation>值(&amp;V)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_plan.py" line="+411"/>
        <source>&amp;Reason:</source>
        <translation>原因(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Message:</source>
        <translation>留言(&amp;M)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Expires after (days):</source>
        <translation>有效天數(&amp;E)：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>e.g. ja, Asia/Tokyo, JP</source>
        <translation>例如 ja、Asia/Tokyo、JP</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_plan.py" line="+2"/>
        <source>Optional; kept with the change</source>
        <translation>選填；隨變更一併保存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Targets:</source>
        <translation>目標：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+7"/>
        <source>The %1 selected rows</source>
        <translation>選取的 %1 列</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>All %1 accounts matching the current filter</source>
        <translation>符合目前篩選條件的全部 %1 個帳號</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>All accounts matching the current filter</source>
        <translation>符合目前篩選條件的全部帳號</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Every pending invitation</source>
        <translation>所有待處理的邀請</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+2"/>
        <source>created at least this many days ago:</source>
        <translation>建立時間至少在這麼多天前：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A list of emails or ids (paste it or import a CSV)</source>
        <translation>電子郵件或 ID 清單（貼上或匯入 CSV）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>One email or id per line, or CSV with an email or id column</source>
        <translation>每行一個電子郵件或 ID，或含 email 或 id 欄的 CSV</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Emails or ids</source>
        <translation>電子郵件或 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Import a file…</source>
        <translation>匯入檔案(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+3"/>
        <source>&amp;Plan (dry run)</source>
        <translation>擬定計畫（試執行）(&amp;P)</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+1"/>
        <location line="+122"/>
        <source>Close</source>
        <translation>關閉</translation>
    </message>
    <message>
        <location line="-66"/>
        <source>&amp;Export the plan…</source>
        <translation>匯出計畫(&amp;E)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Requests at once:</source>
        <translation>同時請求數(&amp;R)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Back</source>
        <translation>返回(&amp;B)</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+3"/>
        <source>&amp;Run on %1 targets</source>
        <translation>對 %1 個目標執行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+1"/>
        <source>The plan</source>
        <translation>計畫</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every target with what the change would do to it</source>
        <translation>每個目標以及變更將對其產生的影響</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Targets and their results</source>
        <translation>目標及其結果</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+9"/>
        <source>Nothing has been sent. %1 targets will change; skipped: %2</source>
        <translation>尚未傳送任何內容。將變更 %1 個目標；略過：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>none</source>
        <translation>無</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+2"/>
        <source>&amp;Cancel the job</source>
        <translation>取消工作(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save the result…</source>
        <translation>儲存結果(&amp;S)…</translation>
    </message>
</context>
<context>
    <name>BulkPlan</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/plan_model.py" line="+26"/>
        <source>Target</source>
        <translation>目標</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>變更前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New</source>
        <translation>新值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason or error</source>
        <translation>原因或錯誤</translation>
    </message>
</context>
<context>
    <name>BulkWords</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/words.py" line="+12"/>
        <source>The signed-in account itself</source>
        <translation>目前登入的帳號本身</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Already has the new value</source>
        <translation>已是新值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Its current status does not allow this</source>
        <translation>目前狀態不允許此操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not found</source>
        <translation>找不到</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Listed more than once</source>
        <translation>重複列出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Already accepted, declined, expired or cancelled</source>
        <translation>已接受、已拒絕、已過期或已取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A pending invitation exists</source>
        <translation>已有待處理的邀請</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Neither an email nor an id</source>
        <translation>既不是電子郵件也不是 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The expiry is not 1 to 365 whole days</source>
        <translation>有效期不是 1 到 365 的整天數</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The file is not UTF-8 text.</source>
        <translation>此檔案不是 UTF-8 文字。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file is too large (64 MiB at most).</source>
        <translation>檔案過大（最大 64 MiB）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The list has more than 200,000 lines.</source>
        <translation>清單超過 200,000 行。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No column is named email or id.</source>
        <translation>沒有名為 email 或 id 的欄。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The CSV cannot be read (an unclosed quote?).</source>
        <translation>無法讀取此 CSV（引號未閉合？）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The list names nothing.</source>
        <translation>清單是空的。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Planned</source>
        <translation>已排定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skipped</source>
        <translation>已略過</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Being sent</source>
        <translation>正在傳送</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown outcome</source>
        <translation>結果未知</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running</source>
        <translation>執行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paused</source>
        <translation>已暫停</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Interrupted</source>
        <translation>已中斷</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Paused.</source>
        <translation>已暫停。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paused: the server cannot be reached. Nothing is lost; resume when it is.</source>
        <translation>已暫停：無法連線到伺服器。不會遺失任何內容；恢復連線後請繼續。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Paused: the sign-in has ended.</source>
        <translation>已暫停：登入已結束。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paused: the program stopped the job.</source>
        <translation>已暫停：程式停止了此工作。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Change status</source>
        <translation>變更狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset passwords</source>
        <translation>重設密碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set a field</source>
        <translation>設定欄位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite</source>
        <translation>邀請</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel invitations</source>
        <translation>取消邀請</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revert</source>
        <translation>還原</translation>
    </message>
</context>
<context>
    <name>CampaignConfirm</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/confirmations.py" line="+23"/>
        <source>Items still undecided: %n. Sign off anyway?</source>
        <translation>仍未決定的項目：%n 個。仍要簽署確認嗎？</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Signing off freezes the file: the undecided items stay undecided for good, shown as not reviewed in the evidence pack, and no one can decide them in this file. Every decision made is frozen as it is.</source>
        <translation>簽署確認會凍結此檔案：未決定的項目將永久保持未決定，在證據套件中顯示為「未審查」，任何人都無法再在此檔案中對其做出決定。已做出的每個決定都依現狀凍結。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Sign off with %n undecided</source>
        <translation>簽署確認（%n 個未決定）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Every item is decided. Sign off?</source>
        <translation>所有項目均已決定。要簽署確認嗎？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing off freezes every decision of the file as it is: no one can change them in this file afterwards.</source>
        <translation>簽署確認會依現狀凍結此檔案中的每個決定：之後任何人都無法在此檔案中變更它們。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sign off</source>
        <translation>簽署確認</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sign off “%1”</source>
        <translation>簽署確認「%1」</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Signed-off Revokes not carried out: %n. Close the campaign anyway?</source>
        <translation>已簽署確認但尚未執行的撤銷：%n 個。仍要關閉審查活動嗎？</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Close with %n not carried out</source>
        <translation>關閉（%n 個未執行）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Close the campaign?</source>
        <translation>要關閉審查活動嗎？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close the campaign</source>
        <translation>關閉審查活動</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Closing takes a snapshot of the server, checks every decision against it and makes every decision final. Remediation is no longer possible from this campaign: a Revoke not carried out by then stays not done, and the closing check says so.</source>
        <translation>關閉時會對伺服器建立快照，依據快照檢查每個決定，並使每個決定成為最終結果。之後無法再從此審查活動進行補救：屆時尚未執行的撤銷將保持未完成，關閉時檢查會註明這一點。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Close “%1”</source>
        <translation>關閉「%1」</translation>
    </message>
</context>
<context>
    <name>CampaignCreate</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/create_dialog.py" line="+116"/>
        <source>There is no snapshot yet: take one in Snapshots first.</source>
        <translation>尚無快照：請先在「快照」中擷取一個。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Give the campaign a name.</source>
        <translation>請為審查活動命名。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>New access-review campaign</source>
        <translation>新增存取審查活動</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Snapshot:</source>
        <translation>快照(&amp;S)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation>名稱(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Due:</source>
        <translation>截止日期(&amp;D)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Revoke by:</source>
        <translation>撤銷方式(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;File:</source>
        <translation>檔案(&amp;F)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Suspending the account</source>
        <translation>停用帳戶（暫停）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Deactivating the account</source>
        <translation>停用帳號</translation>
    </message>
</context>
<context>
    <name>CampaignIdentity</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/identity.py" line="+52"/>
        <source>No key: this computer has no usable keyring to decide with.</source>
        <translation>沒有金鑰：這部電腦沒有可用於做出決定的金鑰圈。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reading this installation&apos;s key…</source>
        <translation>正在讀取此安裝的金鑰…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (signed in), with this installation&apos;s key %2</source>
        <translation>%1（已登入），使用此安裝的金鑰 %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This installation&apos;s key %1 (not signed in)</source>
        <translation>此安裝的金鑰 %1（未登入）</translation>
    </message>
</context>
<context>
    <name>CampaignRemediation</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/remediation_dialog.py" line="+45"/>
        <source>Reviewer</source>
        <translation>審查人</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust</source>
        <translation>信任</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed in as</source>
        <translation>登入身分</translation>
    </message>
    <message>
        <location line="+135"/>
        <source>Remediate “%1”</source>
        <extracomment>Plan the remediation (every signer trusted). The trusted keys changed: check the sign-offs again.</extracomment>
        <translation>補救「%1」</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Nothing in this campaign is signed off: there is nothing to remediate.</source>
        <translation>此審查活動中沒有任何簽署確認：沒有可補救的內容。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The campaign changed since it was signed off: it is not remediated. Verify names what changed.</source>
        <translation>審查活動在簽署確認後遭變更：不進行補救。「驗證」會指出變更之處。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Remediation is refused until every signer&apos;s key is trusted here; not trusted: %n. Compare each fingerprint with the reviewer&apos;s by another channel (in person or by telephone), then trust the key.</source>
        <translation>在此處信任每位簽署人的金鑰之前，拒絕補救；未受信任：%n 個。請透過其他管道（當面或電話）將每個指紋與審查人的指紋比對，然後信任該金鑰。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A sign-off was made by an earlier version of the program and does not cover the revocation action: the reviewer signs off again with this version.</source>
        <translation>某個簽署確認由較早版本的程式做出，未涵蓋撤銷動作：請審查人以此版本重新簽署確認。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Separation of duties: you are one of the reviewers of what this remediation carries out. Another administrator should run it.</source>
        <translation>職責分離：您是此次補救所執行內容的審查人之一。應由另一位管理員執行。</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>The signed-off Revokes are carried out as a bulk job, planned from each account&apos;s state now. Check who signed off first: compare each key&apos;s fingerprint with the one the reviewer gave you by another channel.</source>
        <translation>已簽署確認的撤銷將作為批次作業執行，並依每個帳戶的目前狀態規劃。請先核對簽署人：將每個金鑰的指紋與審查人透過其他管道告知您的指紋進行比對。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Sign-offs</source>
        <translation>簽署確認</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy</source>
        <translation>複製(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the fingerprint</source>
        <translation>複製指紋</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Key &amp;fingerprint:</source>
        <translation>金鑰指紋(&amp;F)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Trust this key…</source>
        <translation>信任此金鑰(&amp;T)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Trusted &amp;keys…</source>
        <translation>受信任的金鑰(&amp;K)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Plan the remediation</source>
        <translation>規劃補救(&amp;P)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Separation of duties</source>
        <translation>職責分離</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Why remediation is refused</source>
        <translation>拒絕補救的原因</translation>
    </message>
</context>
<context>
    <name>CampaignSigners</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/signers.py" line="+17"/>
        <source>This installation&apos;s key</source>
        <translation>此安裝的金鑰</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trusted as “%1”</source>
        <translation>已作為「%1」受信任</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The key given for this check</source>
        <translation>為此次檢查指定的金鑰</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not trusted by this installation</source>
        <translation>此安裝不信任</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 decided %2 of these Revokes with this installation&apos;s key.</source>
        <translation>%1 使用此安裝的金鑰做出了其中 %2 個撤銷決定。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 decided %2 of these Revokes as your server account.</source>
        <translation>%1 以您的伺服器帳戶做出了其中 %2 個撤銷決定。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Signed items name sign-off %1, which this file does not have: they count as signed by nobody.</source>
        <extracomment>What a verification found, by the engine&apos;s code (``%1``, ``%2``: its parameters).</extracomment>
        <translation>已簽署的項目指向簽署確認 %1，但此檔案中沒有該簽署確認：這些項目視為無人簽署。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>decided by its own account: %1</source>
        <translation>由其本人帳戶決定：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the sign-off by %1 of %2 does not verify: it was changed</source>
        <translation>%1 於 %2 的簽署確認無法驗證：已被變更</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the sign-off by %1 was made with another key (%2)</source>
        <translation>%1 的簽署確認使用了另一個金鑰（%2）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>changed: %1</source>
        <translation>已變更：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed: %1</source>
        <translation>已刪除：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>added: %1</source>
        <translation>已新增：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its decision in the queue is not the history&apos;s: %1</source>
        <translation>佇列中的決定與歷史記錄不一致：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>… and %1 more items</source>
        <translation>……以及另外 %1 個項目</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 (account %2)</source>
        <translation>%1（帳戶 %2）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not signed in</source>
        <translation>未登入</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 (%2), key %3: %4</source>
        <translation>%1（%2），金鑰 %3：%4</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 signed off with this installation&apos;s key.</source>
        <translation>%1 使用此安裝的金鑰簽署確認。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 signed off as your server account.</source>
        <translation>%1 以您的伺服器帳戶簽署確認。</translation>
    </message>
</context>
<context>
    <name>Campaigns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="+16"/>
        <source>All items</source>
        <translation>全部項目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undecided</source>
        <translation>未決定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Flagged</source>
        <translation>已標記</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept</source>
        <translation>已保留</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoked</source>
        <translation>已撤銷</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Don&apos;t know</source>
        <translation>不確定</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="+24"/>
        <source>%1 carries triggers, views, tables or indexes this program never puts in a campaign. It was refused: they could change decisions behind your back. Ask for the file again from its owner.</source>
        <translation>%1 含有本程式從不放入審查活動的觸發器、檢視、資料表或索引，已被拒絕：它們可能在您不知情時變更決定。請向檔案擁有者重新索取該檔案。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 is not laid out as this program&apos;s campaign files are: a table or an index is missing or defined otherwise. It was refused. Ask for the file again from its owner.</source>
        <translation>%1 的結構與本程式的審查活動檔案不同：缺少某個資料表或索引，或其定義不同。已被拒絕。請向檔案擁有者重新索取該檔案。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is damaged: the database&apos;s own check or its settings fail. Ask for the file again from its owner.</source>
        <translation>%1 已損毀：資料庫本身的檢查或其設定未通過。請向檔案擁有者重新索取該檔案。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reading %1 took too long: it was given up. A campaign file opens in moments; this one may be built to hold the program.</source>
        <translation>讀取 %1 耗時過長，已放棄。審查活動檔案通常片刻即可開啟；此檔案可能是為拖住本程式而構造的。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is your own account: another reviewer decides it. Nothing was recorded.</source>
        <extracomment>A decision refused (``%1``: the item&apos;s name).</extracomment>
        <translation>%1 是您自己的帳戶：須由另一位審查人決定。未記錄任何內容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is signed off: its decision is frozen. Nothing was recorded.</source>
        <translation>%1 已簽署確認：其決定已凍結。未記錄任何內容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The campaign is closed: decisions are final. Nothing was recorded.</source>
        <translation>審查活動已關閉：決定為最終結果。未記錄任何內容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is not in this campaign.</source>
        <translation>%1 不在此審查活動中。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The campaign is already signed off with another key.</source>
        <translation>此審查活動已使用另一個金鑰簽署確認。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The campaign refused it: %1</source>
        <translation>審查活動拒絕了此操作：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A sign-off is by a key this installation does not trust. Compare its fingerprint with the reviewer&apos;s by another channel, then trust the key (Remediate… lists the signers).</source>
        <translation>某個簽署確認所用的金鑰不受此安裝信任。請透過其他管道將其指紋與審查人的指紋比對，然後信任該金鑰（「補救…」會列出簽署人）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A sign-off was made by an earlier version of the program and does not cover the revocation action: the reviewer signs off again with this version.</source>
        <translation>某個簽署確認由較早版本的程式做出，未涵蓋撤銷動作：請審查人以此版本重新簽署確認。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>More items are undecided than when you were asked: nothing was signed. Sign off again to be asked anew.</source>
        <translation>未決定的項目比詢問您時更多：未簽署任何內容。請再次簽署確認以重新詢問。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>This campaign&apos;s scope was taken on another server (%1) than the one you are signed in to (%2): nothing was read or planned. Sign in to the campaign&apos;s server to remediate it.</source>
        <translation>此審查活動的範圍取自另一台伺服器（%1），而非您目前登入的伺服器（%2）：未讀取或規劃任何內容。請登入該審查活動的伺服器後再補救。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>An item was decided by the reviewer&apos;s own account: another reviewer decides it. Nothing was signed.</source>
        <translation>有項目由審查者本人的帳戶做出決定：應由另一位審查者決定。未簽署任何內容。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An item named is not in this campaign.</source>
        <translation>所指定的項目不在此審查活動中。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file is part of another campaign: nothing of it was used.</source>
        <translation>該檔案屬於另一個審查活動：未使用其中任何內容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>An item is decided differently in the two files: nothing of the file was merged.</source>
        <translation>有項目在兩個檔案中的決定不同：未合併該檔案的任何內容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Signed-off Revokes are not carried out yet: closing would leave them for good.</source>
        <translation>已簽署確認的撤銷尚未執行：關閉後將永遠不再執行。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>A campaign needs a name.</source>
        <extracomment>Why an input was refused (BAD_INPUT), by the engine&apos;s reason (``%1``: its parameter).</extracomment>
        <translation>審查活動需要名稱。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not a date (YYYY-MM-DD).</source>
        <translation>%1 不是日期（YYYY-MM-DD）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A revocation suspends or deactivates the account.</source>
        <translation>撤銷方式為暫停或停用帳戶。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The days after which an account counts as not updated must be at least 1.</source>
        <translation>帳戶被視為未更新的天數至少為 1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The snapshot %1 cannot be read: take a new one.</source>
        <translation>無法讀取快照 %1：請重新擷取一個。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 exists already: a campaign file is never overwritten. Choose another.</source>
        <translation>%1 已存在：審查活動檔案從不被覆寫。請另選一個。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The earlier file %1 is neither a snapshot nor a campaign that can be read.</source>
        <translation>先前的檔案 %1 既不是可讀取的快照，也不是可讀取的審查活動。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is not a decision: Keep, Revoke or Don&apos;t know.</source>
        <translation>%1 不是決定：保留、撤銷或不知道。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A justification has at most %1 characters.</source>
        <translation>理由最多 %1 個字元。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A reviewer&apos;s name is one line of text (an e-mail address, say).</source>
        <translation>審查者名稱為一行文字（例如電子郵件地址）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server gave an account id or e-mail address that is not one line.</source>
        <translation>伺服器提供的帳戶 ID 或電子郵件地址不是一行。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The campaign has no items to sign off.</source>
        <translation>審查活動沒有可簽署確認的項目。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The closing snapshot %1 cannot be read.</source>
        <translation>無法讀取結束快照 %1。</translation>
    </message>
    <message>
        <location line="-123"/>
        <source>The file %1 does not exist.</source>
        <extracomment>A file that cannot be opened as a campaign (``%1``: the file&apos;s name).</extracomment>
        <translation>檔案 %1 不存在。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not a campaign file, or it is damaged.</source>
        <translation>%1 不是審查活動檔案，或已損毀。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 was made by a newer version of the program.</source>
        <translation>%1 由較新版本的程式建立。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="+23"/>
        <source>Revoked and done</source>
        <translation>已撤銷並完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoked, not done</source>
        <translation>已撤銷，未完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept, changed meanwhile</source>
        <translation>已保留，期間有變更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Appeared after the scope</source>
        <translation>範圍之後出現</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="+130"/>
        <source>A justification is required to revoke.</source>
        <translation>撤銷需要填寫理由。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A justification is required for Don&apos;t know.</source>
        <translation>「不確定」需要填寫理由。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A justification is required to keep a flagged item.</source>
        <translation>保留已標記的項目需要填寫理由。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+248"/>
        <source>The campaign cannot be read now.</source>
        <extracomment>Who reviews: this installation&apos;s key and the signed-in account (``identity.py``). This computer has no usable keyring: nobody can decide here. The question asked before a step (sign off, close) while it shows. Decisions are written by one thread of their own (its own connection to the file): the fsync of each transaction never holds the loop; one decision at a time.</extracomment>
        <translation>現在無法讀取此審查活動。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/open_step.py" line="+31"/>
        <source>Campaigns (*.review);;All files (*)</source>
        <extracomment>Seconds the engine&apos;s checks of a file may take when the panel opens it (a 100,000-item file takes well under one); past them, and a few more, the panel gives up waiting.</extracomment>
        <translation>審查活動 (*.review);;所有檔案 (*)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>This file cannot be used as a campaign.</source>
        <translation>此檔案無法作為審查活動使用。</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>The campaign could not be created.</source>
        <translation>無法建立審查活動。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="+43"/>
        <location line="+39"/>
        <source>Any flag</source>
        <extracomment>A filter changed (the text after a pause of typing).</extracomment>
        <translation>任意標記</translation>
    </message>
    <message>
        <location line="-35"/>
        <location line="+37"/>
        <source>Any portal</source>
        <translation>任意入口網站</translation>
    </message>
    <message>
        <location line="-33"/>
        <location line="+36"/>
        <source>Any institution</source>
        <translation>任意機構</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+123"/>
        <source>The decision was refused.</source>
        <translation>決定遭拒絕。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/queue_view.py" line="+130"/>
        <source>Every item the filter shows is decided.</source>
        <extracomment>What each key of the queue decides. The current row or the selection moved (once per turn of the loop). K, R or D pressed in the queue: the :class:`Decision`. J pressed in the queue.</extracomment>
        <translation>篩選顯示的所有項目均已決定。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>%1 items selected: one decision and one justification for all.</source>
        <translation>已選擇 %1 個項目：對全部項目使用同一決定和同一理由。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Your own account: another reviewer decides it.</source>
        <translation>您自己的帳戶：須由另一位審查人決定。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 by %2 on %3: %4</source>
        <translation>%1，由 %2 於 %3 決定：%4</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/decision_form.py" line="+85"/>
        <source>A justification is required for Revoke, for Don&apos;t know, and for Keep on a flagged item.</source>
        <extracomment>Keep, Revoke or Don&apos;t know clicked: the :class:`Decision`. Next undecided clicked.</extracomment>
        <translation>撤銷、不確定以及保留已標記的項目都需要填寫理由。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A justification is required for Revoke and for Don&apos;t know.</source>
        <translation>撤銷和不確定需要填寫理由。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/progress_line.py" line="+19"/>
        <source>%1 of %2 decided: %3 kept, %4 revoked, %5 don&apos;t know.</source>
        <translation>已決定 %1 / %2：保留 %3，撤銷 %4，不確定 %5。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>By reviewer: %1.</source>
        <translation>依審查人：%1。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Due %1. Closed.</source>
        <translation>截止 %1。已關閉。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Due %1: overdue, %2 items late.</source>
        <translation>截止 %1：已逾期，%2 個項目逾期。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Due %1.</source>
        <translation>截止 %1。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+39"/>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="-96"/>
        <source>The campaign is closed: decisions are final.</source>
        <extracomment>A step of the campaign (sign off, remediate, close) refused.</extracomment>
        <translation>審查活動已關閉：決定為最終結果。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Signed off: the decisions are frozen.</source>
        <translation>已簽署確認：決定已凍結。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Sign in to do this: it reads the server.</source>
        <translation>請登入後再執行：此操作需要讀取伺服器。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+31"/>
        <source>The campaign was not signed off.</source>
        <translation>審查活動未簽署確認。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Signed off by %1: %2 items, key %3. Give this fingerprint to the administrator by another channel.</source>
        <translation>由 %1 簽署確認：%2 個項目，金鑰 %3。請透過其他管道將此指紋告知管理員。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/remediate_step.py" line="+54"/>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+24"/>
        <source>The sign-offs were not checked.</source>
        <translation>未檢查簽署確認。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="+4"/>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+6"/>
        <source>Nothing in this campaign is signed off yet.</source>
        <translation>此審查活動尚無任何簽署確認。</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+20"/>
        <source>The campaign changed since it was signed off.</source>
        <translation>審查活動在簽署確認後遭變更。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/remediate_step.py" line="+17"/>
        <source>Nothing was remediated.</source>
        <translation>未執行任何補救。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>You reviewed this campaign.</source>
        <translation>您審查過此活動。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No signed-off Revoke to carry out.</source>
        <translation>沒有需要執行的已簽署確認的撤銷。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="+43"/>
        <source>The campaign was not closed.</source>
        <translation>審查活動未關閉。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Closed. Revoked and done: %1; not done: %2; kept, changed meanwhile: %3; appeared after the scope: %4.</source>
        <translation>已關閉。已撤銷並完成：%1；未完成：%2；已保留但期間有變更：%3；範圍之後出現：%4。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+63"/>
        <source>Open a campaign file…</source>
        <translation>開啟審查活動檔案…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New campaign from a snapshot…</source>
        <translation>從快照新增審查活動…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No campaign open</source>
        <translation>未開啟審查活動</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="-15"/>
        <source>The sign-offs verify, but a signer&apos;s key is not trusted by this installation: remediation is refused until it is.</source>
        <translation>簽署確認驗證通過，但此安裝不信任某位簽署人的金鑰：在信任之前拒絕補救。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The sign-offs verify:
%1</source>
        <translation>簽署確認驗證通過：
%1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+3"/>
        <source>Reviewer:</source>
        <translation>審查人：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/decision_form.py" line="+11"/>
        <source>&amp;Justification:</source>
        <translation>理由(&amp;J)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Why (required for Revoke, Don&apos;t know, and Keep on a flagged item)</source>
        <translation>原因（撤銷、不確定以及保留已標記項目時必填）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Keep</source>
        <translation>保留(&amp;K)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep the access (K in the queue)</source>
        <translation>保留存取權限（在佇列中按 K）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Revoke</source>
        <translation>撤銷(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Revoke the access (R in the queue)</source>
        <translation>撤銷存取權限（在佇列中按 R）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Don&apos;t know</source>
        <translation>不確定(&amp;D)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Someone else must decide (D in the queue)</source>
        <translation>須由其他人決定（在佇列中按 D）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Next undecided</source>
        <translation>下一個未決定(&amp;N)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>N in the queue; J moves to the justification, Esc back</source>
        <translation>在佇列中按 N；按 J 移至理由，按 Esc 返回</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+3"/>
        <source>Sign off…</source>
        <translation>簽署確認…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify</source>
        <translation>驗證</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remediate…</source>
        <translation>補救…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close the campaign</source>
        <translation>關閉審查活動</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence pack…</source>
        <translation>證據套件…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="-13"/>
        <source>Search e-mail, name or id</source>
        <translation>搜尋電子郵件、名稱或 ID</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="-46"/>
        <source>Item</source>
        <translation>項目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>結果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State at closing</source>
        <translation>關閉時狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Detail</source>
        <translation>詳細資料</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/queue_view.py" line="+12"/>
        <source>Review queue</source>
        <translation>審查佇列</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="+17"/>
        <source>Show items</source>
        <translation>顯示的項目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter by flag</source>
        <translation>依標記篩選</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter by portal</source>
        <translation>依入口網站篩選</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter by institution</source>
        <translation>依機構篩選</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search the queue</source>
        <translation>搜尋佇列</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="+3"/>
        <source>Closing check</source>
        <translation>關閉時檢查</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+4"/>
        <source>Campaigns</source>
        <translation>審查活動</translation>
    </message>
</context>
<context>
    <name>CampaignsTour</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/tour.py" line="+40"/>
        <source>Q4 access review</source>
        <extracomment>Turns of 20 ms a stop waits for its question to show (30 s).</extracomment>
        <translation>第四季存取審查</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Still on the support team</source>
        <translation>仍在支援團隊</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Left the company in October</source>
        <translation>已於十月離職</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Contractor: ask the project lead</source>
        <translation>約聘人員：請詢問專案負責人</translation>
    </message>
</context>
<context>
    <name>ChangePassword</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/change_password.py" line="+41"/>
        <source>Enter your current password.</source>
        <translation>請輸入目前的密碼。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The new password must differ from the current one.</source>
        <translation>新密碼不得與目前的密碼相同。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Your password was changed.</source>
        <translation>密碼已變更。</translation>
    </message>
    <message>
        <location line="+75"/>
        <location line="+24"/>
        <source>Close</source>
        <translation>關閉</translation>
    </message>
    <message>
        <location line="-15"/>
        <location line="+13"/>
        <source>Change password</source>
        <translation>變更密碼</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Change your password</source>
        <translation>變更您的密碼</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enter your current password, then the new one twice.</source>
        <translation>請輸入目前的密碼，再輸入兩次新密碼。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Current password:</source>
        <translation>目前密碼(&amp;C)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;New password:</source>
        <translation>新密碼(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Repeat it:</source>
        <translation>確認新密碼(&amp;R)：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Current password</source>
        <translation>目前密碼</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New password</source>
        <translation>新密碼</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Repeat the new password</source>
        <translation>再次輸入新密碼</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Change the password</source>
        <translation>變更密碼</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Close this dialog</source>
        <translation>關閉此對話方塊</translation>
    </message>
</context>
<context>
    <name>ChannelColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/channels_model.py" line="+44"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Category</source>
        <translation>類別</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Default</source>
        <translation>預設</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Delivers via</source>
        <translation>傳送方式</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Institution</source>
        <translation>機構</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Description</source>
        <translation>說明</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Updated</source>
        <translation>更新時間</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Created</source>
        <translation>建立時間</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Active</source>
        <translation>已啟用</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>ChannelDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/channel_dialog.py" line="+308"/>
        <source>&amp;Category:</source>
        <translation>類別(&amp;C)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Description:</source>
        <translation>說明(&amp;D)：</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>&amp;Institution:</source>
        <translation>機構(&amp;I)：</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>&amp;Name:</source>
        <translation>名稱(&amp;N)：</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&amp;Test connection</source>
        <translation>測試連線(&amp;T)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Ask the server to check the mail-server settings</source>
        <translation>請伺服器檢查郵件伺服器設定</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="-43"/>
        <source>Category</source>
        <translation>類別</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Checks the mail-server settings with the server, then saves</source>
        <translation>先由伺服器檢查郵件伺服器設定，再儲存</translation>
    </message>
    <message>
        <location line="-147"/>
        <source>Choose a category.</source>
        <translation>請選擇類別。</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>Default channel</source>
        <translation>預設管道</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Default channel of its category</source>
        <translation>此類別的預設管道</translation>
    </message>
    <message>
        <location line="-124"/>
        <location line="+111"/>
        <source>Description</source>
        <translation>說明</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Edit channel “%1”</source>
        <translation>編輯管道「%1」</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>Input problems</source>
        <translation>輸入問題</translation>
    </message>
    <message>
        <location line="-47"/>
        <source>Institution</source>
        <translation>機構</translation>
    </message>
    <message>
        <location line="-117"/>
        <location line="+115"/>
        <source>Name</source>
        <extracomment>(protocol, keyword arguments of the client&apos;s validate operation)</extracomment>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>New notification channel</source>
        <translation>新增通知管道</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>S&amp;tatus:</source>
        <translation>狀態(&amp;T)：</translation>
    </message>
    <message>
        <location line="+37"/>
        <location line="+1"/>
        <source>Save</source>
        <translation>儲存</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Server check</source>
        <translation>伺服器檢查</translation>
    </message>
    <message>
        <location line="-25"/>
        <location line="+2"/>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Test connection</source>
        <translation>測試連線</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Your institution</source>
        <translation>您的機構</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>✔ %1 check passed: %2</source>
        <translation>✔ %1 檢查通過：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>✘ %1 check failed: %2</source>
        <translation>✘ %1 檢查失敗：%2</translation>
    </message>
</context>
<context>
    <name>ChannelSettings</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/settings_forms.py" line="+239"/>
        <source>&amp;From address:</source>
        <translation>寄件者地址(&amp;F)：</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>&amp;Host:</source>
        <translation>主機(&amp;H)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Port:</source>
        <translation>連接埠(&amp;P)：</translation>
    </message>
    <message>
        <location line="+168"/>
        <source>&amp;Provider:</source>
        <translation>服務供應商(&amp;P)：</translation>
    </message>
    <message>
        <location line="-164"/>
        <source>&amp;Security:</source>
        <translation>安全性(&amp;S)：</translation>
    </message>
    <message>
        <location line="+224"/>
        <source>&amp;URL:</source>
        <translation>URL(&amp;U)：</translation>
    </message>
    <message>
        <location line="-220"/>
        <source>&amp;Username:</source>
        <translation>使用者名稱(&amp;U)：</translation>
    </message>
    <message>
        <location line="+161"/>
        <source>API &amp;key:</source>
        <translation>API 金鑰(&amp;K)：</translation>
    </message>
    <message>
        <location line="-14"/>
        <location line="+19"/>
        <source>API key</source>
        <translation>API 金鑰</translation>
    </message>
    <message>
        <location line="-154"/>
        <source>From &amp;name:</source>
        <translation>寄件者名稱(&amp;N)：</translation>
    </message>
    <message>
        <location line="-38"/>
        <location line="+35"/>
        <source>From address</source>
        <translation>寄件者地址</translation>
    </message>
    <message>
        <location line="-30"/>
        <location line="+34"/>
        <source>From name</source>
        <translation>寄件者名稱</translation>
    </message>
    <message>
        <location line="-54"/>
        <location line="+30"/>
        <source>Host</source>
        <extracomment>The usual port of each security mode, for SMTP and for IMAP.</extracomment>
        <translation>主機</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>IMAP</source>
        <translation>IMAP</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>Incoming mail (IMAP)</source>
        <translation>內送郵件（IMAP）</translation>
    </message>
    <message>
        <location line="-62"/>
        <source>None (unencrypted)</source>
        <translation>無（不加密）</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Outgoing mail (SMTP)</source>
        <translation>外寄郵件（SMTP）</translation>
    </message>
    <message>
        <location line="-89"/>
        <source>Pass&amp;word:</source>
        <translation>密碼(&amp;W)：</translation>
    </message>
    <message>
        <location line="-36"/>
        <location line="+37"/>
        <source>Password</source>
        <translation>密碼</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Port</source>
        <translation>連接埠</translation>
    </message>
    <message>
        <location line="+150"/>
        <location line="+22"/>
        <source>Provider</source>
        <translation>服務供應商</translation>
    </message>
    <message>
        <location line="-148"/>
        <source>SMTP</source>
        <translation>SMTP</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>STARTTLS (upgrade to encryption)</source>
        <translation>STARTTLS（升級為加密連線）</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>Security</source>
        <translation>安全性</translation>
    </message>
    <message>
        <location line="+165"/>
        <source>Sender &amp;id:</source>
        <translation>寄件者 ID(&amp;I)：</translation>
    </message>
    <message>
        <location line="-12"/>
        <location line="+17"/>
        <source>Sender id</source>
        <translation>寄件者 ID</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Settings (JSON)</source>
        <translation>設定（JSON）</translation>
    </message>
    <message>
        <location line="-49"/>
        <source>Signing &amp;secret:</source>
        <translation>簽署密鑰(&amp;S)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Signing secret</source>
        <translation>簽署密鑰</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Stored secrets show as %1; leave them so to keep them.</source>
        <translation>已儲存的密鑰顯示為 %1；保持不變即可保留。</translation>
    </message>
    <message>
        <location line="-244"/>
        <source>TLS (encrypted from the start)</source>
        <translation>TLS（全程加密）</translation>
    </message>
    <message>
        <location line="+180"/>
        <location line="+14"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="-125"/>
        <source>Use incoming mail (IMAP)</source>
        <translation>使用內送郵件（IMAP）</translation>
    </message>
    <message>
        <location line="-137"/>
        <location line="+39"/>
        <source>Username</source>
        <translation>使用者名稱</translation>
    </message>
</context>
<context>
    <name>ChannelState</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="+32"/>
        <source>Secure Channel: none</source>
        <translation>安全通道：無</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel: established</source>
        <translation>安全通道：已建立</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel: failed</source>
        <translation>安全通道：失敗</translation>
    </message>
</context>
<context>
    <name>ChannelTypeColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/types_model.py" line="+25"/>
        <source>Code</source>
        <translation>代碼</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Description</source>
        <translation>說明</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Display order</source>
        <translation>顯示順序</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enabled</source>
        <translation>已啟用</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Updated</source>
        <translation>更新時間</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Created</source>
        <translation>建立時間</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Icon</source>
        <translation>圖示</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>ChannelTypeDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/type_dialog.py" line="+210"/>
        <source>&amp;Code:</source>
        <translation>代碼(&amp;C)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Description:</source>
        <translation>說明(&amp;D)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Icon URL:</source>
        <translation>圖示 URL(&amp;I)：</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>&amp;Name:</source>
        <translation>名稱(&amp;N)：</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Automatic</source>
        <translation>自動</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>Code</source>
        <translation>代碼</translation>
    </message>
    <message>
        <location line="-74"/>
        <location line="+76"/>
        <source>Description</source>
        <translation>說明</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Display &amp;order:</source>
        <translation>顯示順序(&amp;O)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Display order</source>
        <translation>顯示順序</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>E&amp;xtra settings (JSON):</source>
        <translation>其他設定（JSON）(&amp;X)：</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Edit channel type %1</source>
        <translation>編輯管道類型 %1</translation>
    </message>
    <message>
        <location line="-53"/>
        <location line="+71"/>
        <source>Extra settings</source>
        <translation>其他設定</translation>
    </message>
    <message>
        <location line="-74"/>
        <location line="+73"/>
        <source>Icon URL</source>
        <translation>圖示 URL</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Input problems</source>
        <translation>輸入問題</translation>
    </message>
    <message>
        <location line="-108"/>
        <location line="+80"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>New channel type</source>
        <translation>新增管道類型</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Optional, for example {&quot;retries&quot;: 3}</source>
        <translation>選填，例如 {&quot;retries&quot;: 3}</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+1"/>
        <source>Save</source>
        <translation>儲存</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>e.g. TEAMS_CHAT</source>
        <translation>例如 TEAMS_CHAT</translation>
    </message>
</context>
<context>
    <name>ChannelTypesPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/types_panel.py" line="+191"/>
        <source>&amp;Code:</source>
        <translation>代碼(&amp;C)：</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>&amp;Delete…</source>
        <translation>刪除(&amp;D)…</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>&amp;Edit…</source>
        <translation>編輯(&amp;E)…</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>&amp;New…</source>
        <translation>新增(&amp;N)…</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>&amp;Status:</source>
        <translation>狀態(&amp;S)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Any code</source>
        <translation>所有代碼</translation>
    </message>
    <message>
        <location line="-73"/>
        <location line="+82"/>
        <source>Any status</source>
        <translation>所有狀態</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Code</source>
        <translation>代碼</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Ena&amp;bled only</source>
        <translation>僅限已啟用(&amp;B)</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>Could not create the channel type</source>
        <translation>無法建立管道類型</translation>
    </message>
    <message>
        <location line="+97"/>
        <source>Could not delete the channel type</source>
        <translation>無法刪除管道類型</translation>
    </message>
    <message>
        <location line="-51"/>
        <source>Could not disable the channel type</source>
        <translation>無法停用管道類型</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Could not enable the channel type</source>
        <translation>無法啟用管道類型</translation>
    </message>
    <message>
        <location line="-45"/>
        <source>Could not save the channel type</source>
        <translation>無法儲存管道類型</translation>
    </message>
    <message>
        <location line="-117"/>
        <source>Created</source>
        <translation>建立時間</translation>
    </message>
    <message>
        <location line="+195"/>
        <source>Delete</source>
        <translation>刪除</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Delete channel type</source>
        <translation>刪除管道類型</translation>
    </message>
    <message>
        <location line="-130"/>
        <source>Delete the channel type</source>
        <translation>刪除管道類型</translation>
    </message>
    <message>
        <location line="+132"/>
        <source>Delete the channel type “%1” (%2)? This cannot be undone.</source>
        <translation>要刪除管道類型「%1」（%2）嗎？此操作無法復原。</translation>
    </message>
    <message>
        <location line="-198"/>
        <source>Description</source>
        <translation>說明</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Disable</source>
        <translation>停用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Disable the channel type</source>
        <translation>停用管道類型</translation>
    </message>
    <message>
        <location line="-21"/>
        <source>Display order</source>
        <translation>顯示順序</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Edit the channel type</source>
        <translation>編輯管道類型</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>Enable</source>
        <translation>啟用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Enable the channel type</source>
        <translation>啟用管道類型</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Enabled only</source>
        <translation>僅限已啟用</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>Extra settings</source>
        <translation>其他設定</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Filter by code</source>
        <translation>依代碼篩選</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by status</source>
        <translation>依狀態篩選</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Icon URL</source>
        <translation>圖示 URL</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>New channel type</source>
        <translation>新增管道類型</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Updated</source>
        <translation>更新時間</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>ChannelsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/channels_panel.py" line="+236"/>
        <source>&amp;Active only</source>
        <translation>僅限已啟用(&amp;A)</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>&amp;Category:</source>
        <translation>類別(&amp;C)：</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>&amp;Delete…</source>
        <translation>刪除(&amp;D)…</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>&amp;Edit…</source>
        <translation>編輯(&amp;E)…</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>&amp;Institution:</source>
        <translation>機構(&amp;I)：</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>&amp;New…</source>
        <translation>新增(&amp;N)…</translation>
    </message>
    <message>
        <location line="-28"/>
        <source>&amp;Status:</source>
        <translation>狀態(&amp;S)：</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>Activate</source>
        <translation>啟用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Activate the channel</source>
        <translation>啟用管道</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Active only</source>
        <translation>僅限已啟用</translation>
    </message>
    <message>
        <location line="-99"/>
        <location line="+91"/>
        <source>Any category</source>
        <translation>所有類別</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Any institution id</source>
        <translation>所有機構 ID</translation>
    </message>
    <message>
        <location line="-74"/>
        <location line="+88"/>
        <source>Any status</source>
        <translation>所有狀態</translation>
    </message>
    <message>
        <location line="-65"/>
        <source>Category</source>
        <translation>類別</translation>
    </message>
    <message>
        <location line="+273"/>
        <source>Could not activate the channel</source>
        <translation>無法啟用管道</translation>
    </message>
    <message>
        <location line="-85"/>
        <source>Could not check the %1 settings</source>
        <translation>無法檢查 %1 設定</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Could not create the channel</source>
        <translation>無法建立管道</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Could not deactivate the channel</source>
        <translation>無法停用管道</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Could not delete the channel</source>
        <translation>無法刪除管道</translation>
    </message>
    <message>
        <location line="-192"/>
        <source>Could not load the categories</source>
        <extracomment>Categories a new channel may use: the enabled channel types.</extracomment>
        <translation>無法載入類別</translation>
    </message>
    <message>
        <location line="+116"/>
        <source>Could not save the channel</source>
        <translation>無法儲存管道</translation>
    </message>
    <message>
        <location line="-225"/>
        <source>Created</source>
        <translation>建立時間</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Deactivate</source>
        <translation>停用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Deactivate the channel</source>
        <translation>停用管道</translation>
    </message>
    <message>
        <location line="-27"/>
        <source>Default</source>
        <translation>預設</translation>
    </message>
    <message>
        <location line="+299"/>
        <source>Delete</source>
        <translation>刪除</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Delete channel</source>
        <translation>刪除管道</translation>
    </message>
    <message>
        <location line="-211"/>
        <source>Delete the channel</source>
        <translation>刪除管道</translation>
    </message>
    <message>
        <location line="+213"/>
        <source>Delete the channel “%1” (%2)? This cannot be undone.</source>
        <translation>要刪除管道「%1」（%2）嗎？此操作無法復原。</translation>
    </message>
    <message>
        <location line="-283"/>
        <source>Description</source>
        <translation>說明</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>Edit the channel</source>
        <translation>編輯管道</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>Filter by category</source>
        <translation>依類別篩選</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Filter by institution</source>
        <translation>依機構篩選</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Filter by status</source>
        <translation>依狀態篩選</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Institution</source>
        <translation>機構</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>New channel</source>
        <translation>新增管道</translation>
    </message>
    <message>
        <location line="-66"/>
        <source>No</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Updated</source>
        <translation>更新時間</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Yes</source>
        <translation>是</translation>
    </message>
</context>
<context>
    <name>Confirm</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/confirm.py" line="+32"/>
        <source>This changes the %1 server “%2”.</source>
        <translation>此操作將影響%1伺服器「%2」。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Confirm change on production</source>
        <translation>確認在正式環境中變更</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Apply change</source>
        <translation>套用變更</translation>
    </message>
</context>
<context>
    <name>ConnectionState</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="-15"/>
        <source>Not connected</source>
        <translation>未連線</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connecting…</source>
        <translation>正在連線…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connected</source>
        <translation>已連線</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server unreachable</source>
        <translation>無法連線至伺服器</translation>
    </message>
</context>
<context>
    <name>ConstantColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reference/constants_panel.py" line="+63"/>
        <source>Code</source>
        <extracomment>The extra columns each list has (section 2.2); the others are hidden.</extracomment>
        <translation>代碼</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Label</source>
        <translation>標籤</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Description</source>
        <translation>說明</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Alpha-2</source>
        <translation>二位字母代碼</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Alpha-3</source>
        <translation>三位字母代碼</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Numeric code</source>
        <translation>數字代碼</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Phone code</source>
        <translation>電話國碼</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Zone id</source>
        <translation>時區 ID</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>UTC offset</source>
        <translation>UTC 時差</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>ISO code</source>
        <translation>ISO 代碼</translation>
    </message>
</context>
<context>
    <name>ConstantLists</name>
    <message>
        <location line="-104"/>
        <source>Countries</source>
        <extracomment>Readable names of the lists (source texts in context &quot;ConstantLists&quot;).</extracomment>
        <translation>國家/地區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Currency config statuses</source>
        <translation>貨幣設定狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notification channel statuses</source>
        <translation>通知管道狀態</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notification channel type statuses</source>
        <translation>通知管道類型狀態</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notification channel types</source>
        <translation>通知管道類型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Order statuses</source>
        <translation>訂單狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zones</source>
        <translation>時區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transfer statuses</source>
        <translation>轉帳狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>US states</source>
        <translation>美國各州</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account statuses</source>
        <translation>帳號狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution statuses</source>
        <translation>機構狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution types</source>
        <translation>機構類型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitation statuses</source>
        <translation>邀請狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Join sources</source>
        <translation>加入來源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal types</source>
        <translation>入口網站類型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace statuses</source>
        <translation>工作區狀態</translation>
    </message>
</context>
<context>
    <name>ConstantsPanel</name>
    <message>
        <location line="+221"/>
        <source>/constants/%1</source>
        <translation>/constants/%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Constant lists</source>
        <translation>常數清單</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Constants</source>
        <translation>常數</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Filter by code, label or description</source>
        <translation>依代碼、標籤或說明篩選</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Shown list</source>
        <translation>目前清單</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Text filter</source>
        <translation>文字篩選</translation>
    </message>
</context>
<context>
    <name>DemoMailbox</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/mailbox.py" line="+57"/>
        <source>The demo mailbox exists only in the built-in sandbox.</source>
        <extracomment>list[MailItem], newest first.</extracomment>
        <translation>示範信箱僅在內建沙箱中提供。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No email has been sent to %1 yet.</source>
        <translation>尚未寄送任何郵件至 %1。</translation>
    </message>
    <message>
        <location line="+189"/>
        <source>Demo mailbox — sandbox</source>
        <translation>示範信箱 — 沙箱</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Demo mailbox</source>
        <translation>示範信箱</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The built-in sandbox sends no real email. Every message it would send is kept here: codes, reset tokens and setup ids.</source>
        <translation>內建沙箱不會寄出真實郵件，所有原本要寄出的郵件都保留在這裡：驗證碼、重設權杖和設定 ID。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Address:</source>
        <translation>地址(&amp;A)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Refresh</source>
        <translation>重新整理</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sent</source>
        <translation>寄送時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Subject</source>
        <translation>主旨</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Code:</source>
        <translation>驗證碼：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset token:</source>
        <translation>重設權杖：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Setup id:</source>
        <translation>設定 ID：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy</source>
        <translation>複製</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verification code</source>
        <translation>驗證碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the verification code</source>
        <translation>複製驗證碼</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reset token</source>
        <translation>重設權杖</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the reset token</source>
        <translation>複製重設權杖</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Setup session id</source>
        <translation>設定工作階段 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the setup session id</source>
        <translation>複製設定工作階段 ID</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Email address of the mailbox</source>
        <translation>信箱的電子郵件地址</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Refresh the mailbox</source>
        <translation>重新整理信箱</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Emails, newest first</source>
        <translation>郵件（最新的在前）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Email text</source>
        <translation>郵件內文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Email subject</source>
        <translation>郵件主旨</translation>
    </message>
</context>
<context>
    <name>DetailPane</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/detail.py" line="+82"/>
        <source>Host</source>
        <translation>主機</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Port</source>
        <translation>連接埠</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Security</source>
        <translation>安全性</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Username</source>
        <translation>使用者名稱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Password</source>
        <translation>密碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From address</source>
        <translation>寄件者地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From name</source>
        <translation>寄件者名稱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Provider</source>
        <translation>服務供應商</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API key</source>
        <translation>API 金鑰</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sender id</source>
        <translation>寄件者 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing secret</source>
        <translation>簽署密鑰</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IMAP</source>
        <translation>IMAP</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>(not set)</source>
        <translation>（未設定）</translation>
    </message>
    <message>
        <location line="-43"/>
        <source>Details</source>
        <translation>詳細資料</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Select a row to see its details.</source>
        <translation>選擇一列以檢視詳細資料。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>•••••• (set)</source>
        <translation>••••••（已設定）</translation>
    </message>
</context>
<context>
    <name>DoctorAdvice</name>
    <message>
        <location filename="../src/portal_admin/ui/doctor/words.py" line="+145"/>
        <source>Send this report to the program&apos;s support.</source>
        <translation>請將此報告傳送給本程式的技術支援。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check the spelling of the host name and your network connection. Inside a company network, check that the VPN is on: internal names resolve only there.</source>
        <translation>請檢查主機名稱的拼寫和網路連線。在公司網路中，請確認 VPN 已開啟：內部名稱只能在那裡解析。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check your network connection and, inside a company network, that the VPN is on.</source>
        <translation>請檢查網路連線；在公司網路中，請確認 VPN 已開啟。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Check the port in the URL and that the server (or proxy) is running; a firewall may also refuse the connection.</source>
        <translation>請檢查 URL 中的連接埠，並確認伺服器（或 Proxy）正在執行；防火牆也可能拒絕連線。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A firewall is probably dropping the connection, or the server is down. Check that this network may reach the server (VPN, firewall rules).</source>
        <translation>可能是防火牆丟棄了連線，或伺服器已停機。請確認此網路可以存取伺服器（VPN、防火牆規則）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check your network connection and the routes to the server (VPN).</source>
        <translation>請檢查網路連線以及到伺服器的路由（VPN）。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The steps below still go through it.</source>
        <translation>下面的步驟仍會經過它。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Check the proxy&apos;s address and port.</source>
        <translation>請檢查 Proxy 的位址和連接埠。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Put the proxy&apos;s user name and password in HTTPS_PROXY (http://user:password@proxy:port) and choose the system proxy setting, or ask your IT department; the report never shows them.</source>
        <translation>請在 HTTPS_PROXY 中填寫 Proxy 的使用者名稱和密碼（http://user:password@proxy:port）並選擇系統 Proxy 設定，或詢問 IT 部門；報告中永遠不會顯示它們。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Check the proxy&apos;s user name and password with your IT department.</source>
        <translation>請向 IT 部門確認 Proxy 的使用者名稱和密碼。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The proxy may not allow this server or port: ask your IT department, or choose no proxy if the server can be reached directly.</source>
        <translation>Proxy 可能不允許存取此伺服器或連接埠：請詢問 IT 部門；如果可以直接連線到伺服器，請選擇不使用 Proxy。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check the proxy URL and its user name and password, or choose no proxy if the server can be reached directly.</source>
        <translation>請檢查 Proxy URL 及其使用者名稱和密碼；如果可以直接連線到伺服器，請選擇不使用 Proxy。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>If the server&apos;s certificate was renewed, ask your IT department for the new fingerprint; otherwise something between you and the server shows its own certificate: do not sign in.</source>
        <translation>如果伺服器憑證已更新，請向 IT 部門索取新的指紋；否則表示你和伺服器之間有東西出示了它自己的憑證：請不要登入。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Tell the server&apos;s administrators: after that date no connection will work.</source>
        <translation>請告知伺服器管理員：該日期之後所有連線都將失敗。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Ask the server&apos;s administrators to enable TLS 1.2 or 1.3.</source>
        <translation>請讓伺服器管理員啟用 TLS 1.2 或 1.3。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Tell the server&apos;s administrators; also check this computer&apos;s date and time.</source>
        <translation>請告知伺服器管理員；同時檢查本機的日期和時間。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Use a host name the certificate names in the URL, or ask the server&apos;s administrators for a certificate that names this one.</source>
        <translation>請在 URL 中使用憑證中列出的主機名稱，或請伺服器管理員提供包含此主機名稱的憑證。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>If the server uses a private or company CA, or a proxy inspects TLS, get that CA&apos;s certificate (PEM) and choose it as the profile&apos;s CA bundle. Never turn verification off.</source>
        <translation>如果伺服器使用私有或公司 CA，或 Proxy 會檢查 TLS，請取得該 CA 的憑證（PEM）並將其選為連線設定檔的 CA 憑證套件。切勿關閉驗證。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Choose the server&apos;s CA certificate as the profile&apos;s CA bundle, or ask its administrators.</source>
        <translation>請將伺服器的 CA 憑證選為連線設定檔的 CA 憑證套件，或詢問伺服器管理員。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The URL says https:// but the port serves plain HTTP (or something else): check the scheme and port of the URL.</source>
        <translation>URL 使用 https://，但該連接埠提供的是明文 HTTP（或其他協定）：請檢查 URL 的協定和連接埠。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server and this computer found no common TLS version or cipher, or something between them closed the connection. Check the URL&apos;s port and any proxy or firewall.</source>
        <translation>伺服器與本機沒有共同的 TLS 版本或加密演算法，或兩者之間有東西關閉了連線。請檢查 URL 的連接埠以及 Proxy 或防火牆。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Something between you and the server holds the connection: check the URL&apos;s port and any firewall or proxy.</source>
        <translation>你和伺服器之間有東西卡住了連線：請檢查 URL 的連接埠以及防火牆或 Proxy。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Use https:// if the server offers it.</source>
        <translation>如果伺服器支援，請使用 https://。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Most things may still work; tell the server&apos;s administrators which version they run.</source>
        <translation>大部分功能可能仍然可用；請告知伺服器管理員他們執行的版本。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A server that is not a System Portal, a proxy that changes answers, or a server fault. Retry; if it keeps happening, send this report to the server&apos;s administrators.</source>
        <translation>可能是伺服器不是 System Portal、Proxy 修改了回應，或伺服器故障。請重試；如果問題持續，請將此報告傳送給伺服器管理員。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The network or the server is slow: the program will work, but slowly. A VPN, a proxy or a distant server may explain it.</source>
        <translation>網路或伺服器較慢：程式可以使用，但會很慢。原因可能是 VPN、Proxy 或伺服器距離較遠。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>This is a captive portal (sign in to the network in a web browser first), a web site, or a wrong URL: the URL must be the base address of a System Portal API.</source>
        <translation>這是強制入口網頁（請先在網頁瀏覽器中登入網路）、一般網站或錯誤的 URL：URL 必須是 System Portal API 的基礎位址。</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+12"/>
        <source>A captive portal (hotel or guest Wi-Fi: open a web page and sign in to the network first), a sign-in page in front of the server, or a wrong URL (check http or https and the path).</source>
        <translation>可能是強制入口網頁（飯店或訪客 Wi-Fi：請先開啟網頁並登入網路）、伺服器前面的登入頁面，或錯誤的 URL（請檢查 http 或 https 以及路徑）。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The server behind the gateway is down or cannot be reached from it; retry later, or tell the server&apos;s administrators.</source>
        <translation>閘道後面的伺服器已停機或無法從閘道存取；請稍後重試，或告知伺服器管理員。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The URL must be the base address of the System Portal API; check it with the server&apos;s administrators.</source>
        <translation>URL 必須是 System Portal API 的基礎位址；請向伺服器管理員確認。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server (or a gateway in front of it) has a problem: retry later, and tell its administrators if it lasts.</source>
        <translation>伺服器（或其前面的閘道）出現問題：請稍後重試，如果持續存在，請告知伺服器管理員。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Something between you and the server (a proxy, a load balancer, a firewall) or the server itself drops connections. Retry; if it keeps happening, tell the server&apos;s administrators.</source>
        <translation>你和伺服器之間的某個環節（Proxy、負載平衡器、防火牆）或伺服器本身中斷了連線。請重試；如果問題持續，請告知伺服器管理員。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server or the network is very slow, or a firewall holds the connection.</source>
        <translation>伺服器或網路非常慢，或防火牆卡住了連線。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Check the URL, the network and any proxy.</source>
        <translation>請檢查 URL、網路以及 Proxy。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Check the profile&apos;s portal access code.</source>
        <translation>請檢查連線設定檔的入口網站存取碼。</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+9"/>
        <source>Authenticator codes change every 30 seconds and sign-ins expire by the server&apos;s clock: codes may be refused. Set the wrong clock from a time server (NTP).</source>
        <translation>驗證器代碼每 30 秒變化一次，登入依伺服器時鐘過期：代碼可能會被拒絕。請透過時間伺服器（NTP）校正錯誤的時鐘。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Tell the server&apos;s administrators: the envelope&apos;s timestamp is unusable.</source>
        <translation>請告知伺服器管理員：封裝格式中的時間戳記無法使用。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The program refuses it unless the profile allows legacy padding. Ask the server&apos;s administrators to switch to RSA-OAEP-256.</source>
        <translation>除非連線設定檔允許舊版填補，否則程式會拒絕。請讓伺服器管理員改用 RSA-OAEP-256。</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+4"/>
        <location line="+48"/>
        <location line="+4"/>
        <location line="+4"/>
        <source>Send this report to the server&apos;s administrators.</source>
        <translation>請將此報告傳送給伺服器管理員。</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>The program fetches the key again by itself; if this happens often, tell the server&apos;s administrators that the key changes too often.</source>
        <translation>程式會自動重新取得金鑰；如果經常發生，請告知伺服器管理員金鑰更換過於頻繁。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The key rotates constantly, or servers behind a load balancer have different keys; tell the server&apos;s administrators.</source>
        <translation>金鑰在不斷輪替，或負載平衡器後面的伺服器使用不同的金鑰；請告知伺服器管理員。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Sessions expire far too soon, or servers behind a load balancer do not share them. The program retries with a new session, at the cost of slower calls; tell the server&apos;s administrators.</source>
        <translation>工作階段過期太快，或負載平衡器後面的伺服器沒有共用工作階段。程式會用新的工作階段重試，但呼叫會變慢；請告知伺服器管理員。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Enter the profile&apos;s portal access code; the portal&apos;s administrators give it.</source>
        <translation>請填寫連線設定檔的入口網站存取碼；入口網站管理員會提供。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Check the profile&apos;s portal access code with the portal&apos;s administrators.</source>
        <translation>請向入口網站管理員確認連線設定檔的入口網站存取碼。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>See the earlier steps.</source>
        <translation>請查看前面的步驟。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The program works, but lists show English labels (or raw keys) in those languages: the server&apos;s translations are missing.</source>
        <translation>程式可以使用，但在這些語言中清單會顯示英文標籤（或原始鍵名）：伺服器缺少翻譯。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>See the earlier steps: the server&apos;s answers are not usable.</source>
        <translation>請查看前面的步驟：伺服器的回應無法使用。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The problems above may be these faults: start the sandbox without fault injection for a clean test.</source>
        <translation>上面的問題可能就是這些故障：請在不注入故障的情況下啟動沙箱，再做一次乾淨的測試。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Whoever can read this file can sign evidence as this installation: keep it, and copies of it in backups, to yourself.</source>
        <translation>任何能讀取此檔案的人都能以本安裝的身分為證據簽署：請妥善保管此檔案及備份中的副本，勿讓他人讀取。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Evidence packs, review decisions, sign-offs and journal checkpoints cannot be signed until it can: if the key file has a passphrase, set PORTAL_ADMIN_KEY_PASSPHRASE.</source>
        <translation>在能讀取之前，無法為證據套件、審查決定、簽核和變更日誌檢查點簽署：如果金鑰檔案設有密語，請設定 PORTAL_ADMIN_KEY_PASSPHRASE。</translation>
    </message>
</context>
<context>
    <name>DoctorCodes</name>
    <message>
        <location line="-631"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 min</source>
        <translation>%1 分鐘</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 h</source>
        <translation>%1 小時</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>The server runs inside this program: there is no network to check.</source>
        <extracomment>Summary and advice by diagnosis code (and a variant, see :func:`_key`).</extracomment>
        <translation>伺服器在本程式內執行：沒有需要檢查的網路。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Skipped: an earlier step failed.</source>
        <translation>已略過：前面的步驟失敗。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped: the server cannot be reached (see above).</source>
        <translation>已略過：無法連線到伺服器（見上文）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Skipped: the server does not answer as a System Portal (see above).</source>
        <translation>已略過：伺服器的回應不像 System Portal（見上文）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Skipped: no usable public key.</source>
        <translation>已略過：沒有可用的公開金鑰。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped: the public list could not be read.</source>
        <translation>已略過：無法讀取公開清單。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The check stopped on an unexpected error.</source>
        <translation>檢查因非預期的錯誤而停止。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 resolves to %2.</source>
        <translation>%1 解析為 %2。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The name %1 could not be resolved.</source>
        <translation>無法解析名稱 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The name %1 could not be resolved in time.</source>
        <translation>未能及時解析名稱 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Connected to %1.</source>
        <translation>已連線到 %1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The connection to %1 was refused: nothing listens on that port.</source>
        <translation>連線 %1 被拒絕：該連接埠上沒有服務在接聽。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No answer from %1 in time.</source>
        <translation>%1 未及時回應。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server could not be reached at %1.</source>
        <translation>無法透過 %1 連線到伺服器。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No proxy is used for this server.</source>
        <translation>此伺服器不使用 Proxy。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The proxy %1 lets the connection through.</source>
        <translation>Proxy %1 允許連線通過。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The proxy is reached over TLS, which this test does not check by itself.</source>
        <translation>Proxy 透過 TLS 存取，本測試不單獨檢查這一點。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 does not answer as an HTTP proxy.</source>
        <translation>%1 的回應不像 HTTP Proxy。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy requires a user name and password (HTTP 407).</source>
        <translation>Proxy 要求使用者名稱和密碼（HTTP 407）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The proxy refused the user name and password it was given (HTTP 407).</source>
        <translation>Proxy 拒絕了所提供的使用者名稱和密碼（HTTP 407）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The proxy could not open a connection to the server (%1).</source>
        <translation>Proxy 無法開啟到伺服器的連線（%1）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The proxy refused the request.</source>
        <translation>Proxy 拒絕了要求。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 with a valid, trusted certificate for %2.</source>
        <translation>%1，%2 的憑證有效且受信任。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 with a valid, trusted certificate for %2; it matches the pin.</source>
        <translation>%1，%2 的憑證有效且受信任；與釘選值一致。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server&apos;s certificate is not the one the profile pins (SHA-256 %1).</source>
        <translation>伺服器憑證不是連線設定檔所釘選的憑證（SHA-256 %1）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server&apos;s certificate ends in %1 days (%2).</source>
        <translation>伺服器憑證將在 %1 天後到期（%2）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server offers only %1, which is outdated.</source>
        <translation>伺服器只提供 %1，該版本已過時。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The server&apos;s certificate has expired (%1).</source>
        <translation>伺服器憑證已過期（%1）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server&apos;s certificate is for %1, not for this host.</source>
        <translation>伺服器憑證屬於 %1，而不是此主機。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s certificate (issued by %1) is not trusted.</source>
        <translation>伺服器憑證（由 %1 簽發）不受信任。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The server&apos;s certificate could not be verified (%1).</source>
        <translation>無法驗證伺服器憑證（%1）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s port does not speak TLS.</source>
        <translation>伺服器的連接埠不使用 TLS。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The TLS handshake failed.</source>
        <translation>TLS 交握失敗。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The TLS handshake got no answer in time.</source>
        <translation>TLS 交握未及時得到回應。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The URL is plain http://: everything travels unencrypted.</source>
        <translation>URL 是明文 http://：所有內容都未加密傳輸。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Plain http to this computer: no TLS to check.</source>
        <translation>到本機的明文 http：沒有 TLS 需要檢查。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A System Portal answer, envelope version %1, %2 items.</source>
        <translation>System Portal 回應，封裝格式版本 %1，%2 個項目。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The envelope&apos;s version is %1, not the one this program speaks.</source>
        <translation>封裝格式版本為 %1，與本程式使用的版本不同。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The answer is not a valid System Portal envelope.</source>
        <translation>該回應不是有效的 System Portal 封裝格式。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server answered a small public list in %1 s, which is slow.</source>
        <translation>伺服器花了 %1 秒才傳回一個很小的公開清單，速度很慢。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server answered with a web page (HTTP %1), not the System Portal API.</source>
        <translation>伺服器傳回的是網頁（HTTP %1），而不是 System Portal API。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server redirects (HTTP %1) instead of answering the API.</source>
        <translation>伺服器進行了重新導向（HTTP %1），而不是回應 API。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server redirects (HTTP %1) to %2 instead of answering the API.</source>
        <translation>伺服器重新導向（HTTP %1）到 %2，而不是回應 API。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>A gateway or proxy answered with an HTML error page (HTTP %1) instead of the server.</source>
        <translation>閘道或 Proxy 傳回了 HTML 錯誤頁面（HTTP %1），而不是伺服器的回應。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server answered HTTP %1 without the API&apos;s envelope: it is not a System Portal, or the URL&apos;s path is wrong.</source>
        <translation>伺服器傳回 HTTP %1 且沒有 API 封裝格式：它不是 System Portal，或 URL 路徑有誤。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The server answered with an error (HTTP %1, code %2).</source>
        <translation>伺服器傳回了錯誤（HTTP %1，代碼 %2）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The connection was closed before a complete answer arrived.</source>
        <translation>在收到完整回應之前連線已關閉。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server did not answer in time.</source>
        <translation>伺服器未及時回應。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The connection could not be opened.</source>
        <translation>無法開啟連線。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server refused the request: the portal access code is missing or wrong, or a gateway blocks this computer.</source>
        <translation>伺服器拒絕了要求：入口網站存取碼缺少或錯誤，或閘道封鎖了這台電腦。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server answered the error %1 (HTTP %2).</source>
        <translation>伺服器傳回錯誤 %1（HTTP %2）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server&apos;s clock and this computer&apos;s agree within %1.</source>
        <translation>伺服器時鐘與本機時鐘相差在 %1 以內。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server&apos;s clock is %1 ahead of this computer&apos;s.</source>
        <translation>伺服器時鐘比本機快 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s clock is %1 behind this computer&apos;s.</source>
        <translation>伺服器時鐘比本機慢 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s timestamp cannot be read as a time.</source>
        <translation>無法將伺服器的時間戳記讀取為時間。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The server&apos;s answer carries no timestamp to compare with.</source>
        <translation>伺服器的回應中沒有可供比較的時間戳記。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>An RSA key of %1 bits, wrapped with %2.</source>
        <translation>%1 位元 RSA 金鑰，使用 %2 封裝。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server wraps keys with the legacy PKCS#1 v1.5 padding (%1).</source>
        <translation>伺服器使用舊版 PKCS#1 v1.5 填補封裝金鑰（%1）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server&apos;s key uses an algorithm this program does not know.</source>
        <translation>伺服器的金鑰使用了本程式不認識的演算法。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server&apos;s public key is unusable.</source>
        <translation>伺服器的公開金鑰無法使用。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A session was opened and closed; both answers were sealed and opened correctly.</source>
        <translation>工作階段已開啟並關閉；兩個回應都已正確加密並解密。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server changed its key between reading and using it; with the new key a session opened and closed.</source>
        <translation>伺服器在讀取和使用金鑰之間更換了金鑰；使用新金鑰後工作階段已開啟並關閉。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server refused its own key twice: the key changes constantly.</source>
        <translation>伺服器兩次拒絕了自己的金鑰：金鑰在不斷變化。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The session opened, but the server had already forgotten it when it was closed.</source>
        <translation>工作階段已開啟，但關閉時伺服器已經忘記了它。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server could not open the key exchange: the algorithm it announces is not the one it uses.</source>
        <translation>伺服器無法開啟金鑰交換：它公布的演算法與實際使用的不一致。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server&apos;s encrypted answer could not be opened.</source>
        <translation>無法解密伺服器的加密回應。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The session answer has no session id.</source>
        <translation>工作階段回應中沒有工作階段 ID。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server requires %1; this program sends them.</source>
        <translation>伺服器要求 %1；本程式會傳送它們。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No header is required before signing in.</source>
        <translation>登入前不需要任何標頭。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server requires a portal access code and none was given.</source>
        <translation>伺服器要求入口網站存取碼，但未提供。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server refuses the portal access code given.</source>
        <translation>伺服器拒絕了所提供的入口網站存取碼。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Whether the server requires %1 could not be told from its answers.</source>
        <translation>無法從伺服器的回應判斷它是否要求 %1。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Labels answer in %1.</source>
        <translation>標籤可用 %1 傳回。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Labels are not translated for %1.</source>
        <translation>標籤未翻譯為 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The labels could not be read in %1.</source>
        <translation>無法讀取 %1 的標籤。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server is not a sandbox with fault injection.</source>
        <translation>該伺服器不是帶有故障注入的沙箱。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server is a sandbox; fault injection is off.</source>
        <translation>該伺服器是沙箱；故障注入已關閉。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server is a sandbox injecting faults on purpose: %1.</source>
        <translation>該伺服器是刻意注入故障的沙箱：%1。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Kept in the system keyring; fingerprint %1.</source>
        <translation>保存在系統金鑰圈中；指紋 %1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Kept in the key file %1 (no usable keyring), readable by its owner only; fingerprint %2.</source>
        <translation>保存在金鑰檔案 %1 中（無可用的金鑰圈），僅其擁有者可讀取；指紋 %2。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No key yet: it is made on first use, in the system keyring.</source>
        <translation>尚無金鑰：首次使用時在系統金鑰圈中建立。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No key yet: it is made on first use, in the key file %1.</source>
        <translation>尚無金鑰：首次使用時在金鑰檔案 %1 中建立。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The evidence-signing key cannot be read: %1.</source>
        <translation>無法讀取證據簽署金鑰：%1。</translation>
    </message>
</context>
<context>
    <name>DoctorDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/doctor/dialog.py" line="+108"/>
        <source>%1 s</source>
        <extracomment>The icon of each outcome (``ui/theme/icons.py``).</extracomment>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+159"/>
        <source>Testing the connection…</source>
        <extracomment>The report being written (``save_report``, started by the file dialog).</extracomment>
        <translation>正在測試連線…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The test was stopped.</source>
        <translation>測試已停止。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This profile cannot be tested: %1</source>
        <translation>無法測試此連線設定檔：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The connection does not work: see the failed step above.</source>
        <translation>連線無法使用：請查看上面失敗的步驟。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server can be used, but look at the warnings above.</source>
        <translation>伺服器可以使用，但請查看上面的警告。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Everything works: this program can connect to the server.</source>
        <translation>一切正常：本程式可以連線到伺服器。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The report was copied.</source>
        <translation>報告已複製。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Save report</source>
        <translation>儲存報告</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Text report (*.txt)</source>
        <translation>文字報告 (*.txt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JSON report (*.json)</source>
        <translation>JSON 報告 (*.json)</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>The report could not be saved: %1</source>
        <translation>無法儲存報告：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The report was saved to %1.</source>
        <translation>報告已儲存到 %1。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Test connection — %1</source>
        <translation>測試連線 — %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the built-in sandbox</source>
        <translation>內建沙箱</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Server: %1</source>
        <translation>伺服器：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Checks the network, TLS and the API step by step, without signing in. The report holds no password, code or token.</source>
        <translation>逐步檢查網路、TLS 和 API，不會登入。報告中不含任何密碼、代碼或權杖。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Steps</source>
        <translation>步驟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy report</source>
        <translation>複製報告(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save report…</source>
        <translation>儲存報告(&amp;S)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Run again</source>
        <translation>重新執行(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
</context>
<context>
    <name>DoctorFaults</name>
    <message>
        <location filename="../src/portal_admin/ui/doctor/words.py" line="-673"/>
        <source>added latency of %1 ms</source>
        <extracomment>A sandbox&apos;s fault settings (``details[&quot;faults&quot;]``): words and how the value is written.</extracomment>
        <translation>增加 %1 毫秒延遲</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>latency jitter of up to %1 ms</source>
        <translation>延遲抖動最多 %1 毫秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of answers are server errors</source>
        <translation>%1 的回應是伺服器錯誤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of connections are dropped</source>
        <translation>%1 的連線被中斷</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of answers are malformed</source>
        <translation>%1 的回應格式錯誤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of answers are an HTML page</source>
        <translation>%1 的回應是 HTML 頁面</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Secure Channel sessions expire before %1 of requests</source>
        <translation>%1 的要求之前安全通道工作階段已過期</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the key is rotated before %1 of requests</source>
        <translation>%1 的要求之前金鑰被輪替</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the clock is shifted by %1 s</source>
        <translation>時鐘偏移 %1 秒</translation>
    </message>
</context>
<context>
    <name>DoctorSteps</name>
    <message>
        <location line="-37"/>
        <source>DNS</source>
        <translation>DNS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TCP connection</source>
        <translation>TCP 連線</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTTP proxy</source>
        <translation>HTTP Proxy</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API envelope</source>
        <translation>API 封裝格式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server clock</source>
        <translation>伺服器時鐘</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel public key</source>
        <translation>安全通道公開金鑰</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel session</source>
        <translation>安全通道工作階段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pre-login headers</source>
        <translation>登入前標頭</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Label languages</source>
        <translation>標籤語言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sandbox fault injection</source>
        <translation>沙箱故障注入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence signing key</source>
        <translation>證據簽署金鑰</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>OK</source>
        <translation>正常</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skipped</source>
        <translation>已略過</translation>
    </message>
</context>
<context>
    <name>EnumLabels</name>
    <message>
        <location filename="../src/portal_admin/ui/enum_labels.py" line="+19"/>
        <location line="+59"/>
        <location line="+60"/>
        <source>Active</source>
        <extracomment>Own labels by enumeration, found by its type name or its constants path. The enumerations with labels of the program&apos;s own, for ``shown``&apos;s ``kind``. An enumeration: its listing, type name (``UserAccountStatus``) or constants path.</extracomment>
        <translation>使用中</translation>
    </message>
    <message>
        <location line="-118"/>
        <location line="+82"/>
        <source>Suspended</source>
        <translation>已停權</translation>
    </message>
    <message>
        <location line="-81"/>
        <source>Pending setup</source>
        <translation>待初始化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rejected</source>
        <translation>已拒絕</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+80"/>
        <source>Deactivated</source>
        <translation>已停用</translation>
    </message>
    <message>
        <location line="-79"/>
        <source>Registered</source>
        <translation>已註冊</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System portal</source>
        <translation>系統入口網站</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tenant portal</source>
        <translation>租戶入口網站</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Partner portal</source>
        <translation>合作夥伴入口網站</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Consumer portal</source>
        <translation>消費者入口網站</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pending</source>
        <translation>待處理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Declined</source>
        <translation>已婉拒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expired</source>
        <translation>已過期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Inactive</source>
        <translation>未啟用</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+54"/>
        <source>Enabled</source>
        <translation>已啟用</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Owner</source>
        <translation>擁有者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Custom</source>
        <translation>自訂</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>E-mail code</source>
        <translation>電子郵件驗證碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Authenticator app</source>
        <translation>驗證器應用程式</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+26"/>
        <source>E-mail</source>
        <extracomment>Field names a person reads: the snapshot&apos;s columns, and the request bodies&apos; names the journal keeps (``accountRemark``), by name.</extracomment>
        <translation>電子郵件</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>SMS</source>
        <translation>簡訊</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Webhook</source>
        <translation>Webhook</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In the app</source>
        <translation>應用程式內</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Activated</source>
        <extracomment>What an account status action leads to, said as its result (&quot;Suspended&quot;).</extracomment>
        <translation>已啟用</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal</source>
        <translation>入口網站</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution</source>
        <translation>機構</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>語言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>時區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>國家/地區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark</source>
        <translation>備註</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone</source>
        <translation>電話</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type</source>
        <translation>類型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Permissions</source>
        <translation>權限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Members</source>
        <translation>成員</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expires</source>
        <translation>到期時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code</source>
        <translation>代碼</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Category</source>
        <translation>類別</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Default</source>
        <translation>預設</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primary</source>
        <translation>主要</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verified</source>
        <translation>已驗證</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist enforced</source>
        <translation>強制執行 IP 白名單</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Backup codes</source>
        <translation>備用碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Session settings</source>
        <translation>工作階段設定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message</source>
        <translation>訊息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Valid for (days)</source>
        <translation>有效期（天）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace</source>
        <translation>工作區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal type</source>
        <translation>入口網站類型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Domain</source>
        <translation>網域</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP addresses</source>
        <translation>IP 位址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type code</source>
        <translation>類型代碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type name</source>
        <translation>類型名稱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type description</source>
        <translation>類型描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type value</source>
        <translation>類型值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type status</source>
        <translation>類型狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Display order</source>
        <translation>顯示順序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Icon address</source>
        <translation>圖示位址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel name</source>
        <translation>管道名稱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel category</source>
        <translation>管道類別</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel status</source>
        <translation>管道狀態</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>Yes</source>
        <extracomment>Prefixes a request body puts before a field&apos;s own name (``accountRemark``: the remark). Which enumeration a field&apos;s values belong to, by field (the kind of row decides &quot;status&quot;). Which enumeration a ``status`` or ``type`` belongs to, by the kind of row (the diff&apos;s kinds). Fields whose values are yes or no.</extracomment>
        <translation>是</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>EnvironmentBanner</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/banner.py" line="+48"/>
        <source>built-in</source>
        <translation>內建</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>READ-ONLY</source>
        <translation>唯讀</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Environment</source>
        <translation>環境</translation>
    </message>
</context>
<context>
    <name>EnvironmentType</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/store.py" line="+47"/>
        <source>PRODUCTION</source>
        <translation>正式環境</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>STAGING</source>
        <translation>預備環境</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TEST</source>
        <translation>測試環境</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SANDBOX</source>
        <translation>沙箱環境</translation>
    </message>
</context>
<context>
    <name>ErrorDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/error_dialog.py" line="+98"/>
        <source>Error</source>
        <translation>錯誤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error code:</source>
        <translation>錯誤代碼：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id:</source>
        <translation>請求 ID：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy details</source>
        <translation>複製詳細資料</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy error details</source>
        <translation>複製錯誤詳細資料</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error code</source>
        <translation>錯誤代碼</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Request id</source>
        <translation>請求 ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Technical details</source>
        <translation>技術細節</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error summary</source>
        <translation>錯誤摘要</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error message</source>
        <translation>錯誤訊息</translation>
    </message>
</context>
<context>
    <name>ErrorInfo</name>
    <message>
        <location filename="../src/portal_admin/ui/error_info.py" line="+22"/>
        <source>You are not signed in, or your sign-in has expired.</source>
        <translation>您尚未登入，或登入已過期。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your account does not have permission to do this.</source>
        <translation>您的帳號無權執行此操作。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The item no longer exists.</source>
        <translation>此項目已不存在。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The change conflicts with the current state on the server.</source>
        <translation>此變更與伺服器上的目前狀態衝突。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Too many requests. Please wait a moment and try again.</source>
        <translation>請求過於頻繁，請稍候再試。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server did not accept the input.</source>
        <translation>伺服器不接受輸入的內容。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The encrypted Secure Channel to the server failed.</source>
        <translation>與伺服器之間的加密安全通道發生錯誤。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server could not complete the request.</source>
        <translation>伺服器無法完成此請求。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The server could not be reached.</source>
        <translation>無法連線至伺服器。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server did not answer in time.</source>
        <translation>伺服器回應逾時。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A file or folder on this computer could not be used.</source>
        <translation>無法使用本機上的檔案或資料夾。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server address cannot be used: it must be http:// or https:// and a host name.</source>
        <extracomment>Profile settings the client or the doctor cannot use, by the client&apos;s error code.</extracomment>
        <translation>無法使用伺服器位址：必須是 http:// 或 https:// 加上主機名稱。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The CA bundle file cannot be found or read. Check its path in the profile.</source>
        <translation>找不到或無法讀取 CA 憑證套件檔案。請檢查設定檔中的路徑。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A certificate pin cannot be used: it must be a SHA-256 fingerprint, with an https:// address. Check the profile&apos;s pins.</source>
        <translation>無法使用憑證釘選值：必須是 SHA-256 指紋，並搭配 https:// 位址。請檢查設定檔的釘選值。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy address cannot be used: it must be http://host:port. Check the profile&apos;s proxy.</source>
        <translation>無法使用 Proxy 位址：必須是 http://主機:連接埠。請檢查設定檔的 Proxy 設定。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This id cannot be used: an id has only letters, digits, &apos;-&apos;, &apos;_&apos; and &apos;.&apos;. Nothing was sent.</source>
        <extracomment>Failures with a cause of their own (connections, a refused id), by the client&apos;s error code.</extracomment>
        <translation>無法使用此 ID：ID 只能包含字母、數字、「-」、「_」和「.」。未傳送任何內容。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy asks for a user name and password, which this program does not have. Use the system proxy setting with them in HTTPS_PROXY, or ask your IT department.</source>
        <translation>Proxy 要求提供使用者名稱和密碼，而本程式沒有這些資訊。請使用在 HTTPS_PROXY 中包含認證資訊的系統 Proxy 設定，或聯絡您的 IT 部門。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy refused to connect to the server. Check the profile&apos;s proxy.</source>
        <translation>Proxy 拒絕連線到伺服器。請檢查設定檔的 Proxy 設定。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server&apos;s certificate is not the one this profile pins: nothing was sent. Ask your IT department whether the certificate was renewed.</source>
        <translation>伺服器的憑證不是此設定檔所釘選的憑證：未傳送任何內容。請詢問您的 IT 部門憑證是否已更新。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A gateway or proxy answered instead of the server (HTTP %1): the server behind it is down or cannot be reached from it. Try again later, or tell the server&apos;s administrators.</source>
        <extracomment>A gateway or proxy answered instead of the server (the client&apos;s ``GatewayError``); %1 is the HTTP status.</extracomment>
        <translation>閘道或 Proxy 代替伺服器作出了回應（HTTP %1）：閘道後面的伺服器已停機或無法從閘道存取。請稍後重試，或告知伺服器管理員。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Something unexpected went wrong in the program.</source>
        <translation>程式發生未預期的錯誤。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Error code</source>
        <extracomment>True for failures the program did not foresee (a bug): shown with their details.</extracomment>
        <translation>錯誤代碼</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Request id</source>
        <translation>請求 ID</translation>
    </message>
</context>
<context>
    <name>ErrorLine</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/error_line.py" line="+129"/>
        <source>Copy</source>
        <extracomment>The failure shown (None: nothing, or a message without a failure behind it).</extracomment>
        <translation>複製</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the error, its code and request id</source>
        <translation>複製錯誤訊息、錯誤代碼和請求 ID</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error</source>
        <translation>錯誤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server message</source>
        <translation>伺服器訊息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error code and request id</source>
        <translation>錯誤代碼和請求 ID</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Error code</source>
        <translation>錯誤代碼</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Request id</source>
        <translation>請求 ID</translation>
    </message>
</context>
<context>
    <name>EvidencePack</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/packing.py" line="+179"/>
        <source>Evidence pack written to %1, signed by the key %2.</source>
        <translation>證據套件已寫入 %1，由金鑰 %2 簽署。</translation>
    </message>
</context>
<context>
    <name>EvidenceReport</name>
    <message>
        <location line="-147"/>
        <source>Snapshot</source>
        <extracomment>Builds (kind, tables, summary) for a pack, in the worker thread. The names a pack&apos;s report shows (its kind, summary keys, tables and columns) that the program&apos;s field labels (``enum_labels.field_label``) do not already name.</extracomment>
        <translation>快照</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Comparison of two snapshots</source>
        <translation>兩個快照的比較</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal</source>
        <translation>變更日誌</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Records</source>
        <translation>記錄</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Since</source>
        <translation>起始</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Until</source>
        <translation>截至</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter</source>
        <translation>篩選條件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal head</source>
        <translation>變更日誌末端</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal intact</source>
        <translation>變更日誌完好</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed checkpoints</source>
        <translation>已簽署的檢查點</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Snapshot of</source>
        <translation>快照對象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connection profile</source>
        <translation>連線設定檔</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Taken by</source>
        <translation>擷取者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started</source>
        <translation>開始時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finished</source>
        <translation>完成時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Program version</source>
        <translation>程式版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Older snapshot</source>
        <translation>較早的快照</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Newer snapshot</source>
        <translation>較新的快照</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing key</source>
        <translation>簽署金鑰</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Accounts</source>
        <translation>帳號</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitations</source>
        <translation>邀請</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist</source>
        <translation>IP 白名單</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Multi-factor authentication</source>
        <translation>多重要素驗證</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel types</source>
        <translation>管道類型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notification channels</source>
        <translation>通知管道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Constants</source>
        <translation>常數</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Changes</source>
        <translation>變更</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Number</source>
        <translation>序號</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Segment</source>
        <translation>段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server time</source>
        <translation>伺服器時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server</source>
        <translation>伺服器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Targets</source>
        <translation>對象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fields</source>
        <translation>欄位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>之後</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>結果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id</source>
        <translation>請求 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTTP status</source>
        <translation>HTTP 狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Intent number</source>
        <translation>意圖序號</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hash</source>
        <translation>雜湊</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous hash</source>
        <translation>上一個雜湊</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key</source>
        <translation>金鑰</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Public key</source>
        <translation>公開金鑰</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signature</source>
        <translation>簽章</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>建立時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Updated</source>
        <translation>更新時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inviter</source>
        <translation>邀請者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace</source>
        <translation>工作區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Entry</source>
        <translation>項目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>List</source>
        <translation>清單</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Label</source>
        <translation>標籤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>變更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Field</source>
        <translation>欄位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Field (label)</source>
        <translation>欄位（標籤）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before (label)</source>
        <translation>之前（標籤）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After (label)</source>
        <translation>之後（標籤）</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Evidence pack: %1</source>
        <extracomment>The names the program&apos;s field labels already name (translated in ``enum_labels``). Columns of the snapshot tables whose codes the program labels, by the kind of row. The summary keys and columns whose values are not labelled (free text, hashes, times).</extracomment>
        <translation>證據套件：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 rows</source>
        <translation>%1 列</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the first %1 shown, all in %2</source>
        <translation>顯示前 %1 列，全部見 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/lists/export_dialog.py" line="+92"/>
        <location line="+11"/>
        <source>Export to CSV</source>
        <translation>匯出為 CSV</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 檔案 (*.csv)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;File:</source>
        <translation>檔案(&amp;F)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Delimiter:</source>
        <translation>分隔符號(&amp;D)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse…</source>
        <translation>瀏覽…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Comma (,)</source>
        <translation>逗號（,）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Semicolon (;)</source>
        <translation>分號（;）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tab</source>
        <translation>定位字元</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export file</source>
        <translation>匯出檔案</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose the export file</source>
        <translation>選擇匯出檔案</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delimiter</source>
        <translation>分隔符號</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Exporting</source>
        <translation>正在匯出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export progress</source>
        <translation>匯出進度</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Exported %1 of %2 rows…</source>
        <translation>已匯出 %1/%2 列…</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+24"/>
        <source>Open folder</source>
        <translation>開啟資料夾</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Export finished</source>
        <translation>匯出完成</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%n row(s) exported to %1.</source>
        <translation>已將 %n 列匯出至 %1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open the folder of the exported file</source>
        <translation>開啟匯出檔案所在的資料夾</translation>
    </message>
</context>
<context>
    <name>FileWork</name>
    <message>
        <location filename="../src/portal_admin/ui/file_work.py" line="+32"/>
        <source>The file cannot be read: it is damaged, or it is not a file this program writes.</source>
        <translation>無法讀取該檔案：檔案已損毀，或者不是本程式寫入的檔案。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The file is in use by another window or by the command line. Try again later.</source>
        <translation>該檔案正被另一個視窗或命令列使用。請稍後再試。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing can be signed: this installation&apos;s signing key cannot be read.</source>
        <translation>無法簽署任何內容：無法讀取本安裝的簽署金鑰。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The key is kept in the system keyring or, without one, in a key file only you can read. If that file has a passphrase, start the program with PORTAL_ADMIN_KEY_PASSPHRASE set. Help &gt; About says where the key is.</source>
        <translation>該金鑰保存在系統金鑰圈中；沒有金鑰圈時，保存在只有您能讀取的金鑰檔案中。如果該檔案設有密語，請在設定 PORTAL_ADMIN_KEY_PASSPHRASE 後啟動本程式。「說明 &gt; 關於」會顯示金鑰的位置。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The file work did not end within %1 seconds.</source>
        <translation>檔案作業未在 %1 秒內結束。</translation>
    </message>
</context>
<context>
    <name>InvitationColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/models.py" line="+29"/>
        <source>Invitee email</source>
        <translation>受邀者電子郵件</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+57"/>
        <source>Inviter</source>
        <translation>邀請者</translation>
    </message>
    <message>
        <location line="-50"/>
        <location line="+57"/>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="-50"/>
        <location line="+72"/>
        <source>Message</source>
        <translation>訊息</translation>
    </message>
    <message>
        <location line="-65"/>
        <location line="+50"/>
        <source>Expires</source>
        <translation>到期時間</translation>
    </message>
    <message>
        <location line="-42"/>
        <location line="+63"/>
        <source>Created</source>
        <translation>建立時間</translation>
    </message>
    <message>
        <location line="-55"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Workspace</source>
        <translation>工作區</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Can be accepted</source>
        <translation>可否接受</translation>
    </message>
</context>
<context>
    <name>InvitationDialogs</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/dialogs.py" line="+221"/>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>%1 / %2 characters</source>
        <translation>%1/%2 個字元</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Email:</source>
        <translation>電子郵件(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Message:</source>
        <translation>訊息(&amp;M)：</translation>
    </message>
    <message>
        <location line="+117"/>
        <source>&amp;Reason (optional):</source>
        <translation>原因（選填）(&amp;R)：</translation>
    </message>
    <message>
        <location line="-111"/>
        <source>Between %1 and %2 days</source>
        <translation>%1 至 %2 天</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+64"/>
        <location line="+33"/>
        <location line="+3"/>
        <source>Cancel invitation</source>
        <translation>取消邀請</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>Cancel the invitation to %1? They will no longer be able to accept it. This cannot be undone.</source>
        <translation>要取消對 %1 的邀請嗎？對方將無法再接受此邀請。此操作無法復原。</translation>
    </message>
    <message>
        <location line="-97"/>
        <source>E&amp;xpires after:</source>
        <translation>有效期限(&amp;X)：</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Email problem</source>
        <translation>電子郵件地址問題</translation>
    </message>
    <message>
        <location line="-206"/>
        <source>Enter the email address of the person to invite.</source>
        <extracomment>The bounds the wire description states (``protocol.bodies``): 1 to 30 days, default 7.</extracomment>
        <translation>請輸入受邀者的電子郵件地址。</translation>
    </message>
    <message>
        <location line="+196"/>
        <source>Expiration in days</source>
        <translation>有效天數</translation>
    </message>
    <message>
        <location line="+99"/>
        <source>For example: sent to the wrong address</source>
        <translation>例如：寄錯地址</translation>
    </message>
    <message>
        <location line="-107"/>
        <source>Invitation message</source>
        <translation>邀請訊息</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Invite</source>
        <translation>邀請</translation>
    </message>
    <message>
        <location line="-28"/>
        <source>Invite someone</source>
        <translation>邀請成員</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Invitee email</source>
        <translation>受邀者電子郵件</translation>
    </message>
    <message>
        <location line="+120"/>
        <location line="+2"/>
        <source>Keep invitation</source>
        <translation>保留邀請</translation>
    </message>
    <message>
        <location line="-116"/>
        <source>Optional message shown in the invitation email</source>
        <translation>顯示於邀請郵件中的訊息（選填）</translation>
    </message>
    <message>
        <location line="+118"/>
        <source>Question</source>
        <translation>問題</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Reason for cancelling</source>
        <translation>取消原因</translation>
    </message>
    <message>
        <location line="-92"/>
        <source>Send invitation</source>
        <translation>傳送邀請</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Server error</source>
        <translation>伺服器錯誤</translation>
    </message>
    <message>
        <location line="-204"/>
        <source>The email address is longer than %1 characters.</source>
        <translation>電子郵件地址超過 %1 個字元。</translation>
    </message>
    <message>
        <location line="+117"/>
        <source>The message is longer than %1 characters.</source>
        <extracomment>The person pressed Invite with valid input: the panel sends it.</extracomment>
        <translation>訊息超過 %1 個字元。</translation>
    </message>
    <message>
        <location line="+159"/>
        <source>This changes the %1 server “%2”.</source>
        <translation>此操作將影響%1伺服器「%2」。</translation>
    </message>
    <message>
        <location line="-270"/>
        <source>This is not a valid email address (expected name@example.com).</source>
        <translation>這不是有效的電子郵件地址（格式應為 name@example.com）。</translation>
    </message>
</context>
<context>
    <name>Invitations</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/models.py" line="+25"/>
        <source>Yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/formatting.py" line="+54"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/panel.py" line="+328"/>
        <source>All statuses</source>
        <translation>所有狀態</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cancel invitation…</source>
        <translation>取消邀請…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancel the selected invitation</source>
        <translation>取消所選邀請</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/formatting.py" line="+42"/>
        <source>Cannot be accepted: %1</source>
        <translation>無法接受：%1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/panel.py" line="-38"/>
        <source>Could not cancel the invitation to %1</source>
        <translation>無法取消對 %1 的邀請</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>Could not invite</source>
        <translation>無法傳送邀請</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>There are no invitations yet.</source>
        <translation>尚無邀請。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No invitations match these filters.</source>
        <translation>沒有符合這些篩選條件的邀請。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Status:</source>
        <translation>狀態(&amp;S)：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Filter by email, inviter or message</source>
        <translation>依電子郵件、邀請者或訊息篩選</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Invitations</source>
        <translation>邀請</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Invite someone</source>
        <translation>邀請成員</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Invite…</source>
        <translation>邀請…</translation>
    </message>
    <message>
        <location line="-110"/>
        <source>Inviting is not possible: %1</source>
        <translation>無法邀請：%1</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>Only pending invitations can be cancelled; this one is %1.</source>
        <translation>只能取消待處理的邀請；此邀請的狀態為%1。</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Select a pending invitation to cancel it.</source>
        <translation>選擇待處理的邀請即可取消。</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>Status filter</source>
        <translation>狀態篩選</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Text filter</source>
        <translation>文字篩選</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Why actions are disabled</source>
        <translation>無法執行操作的原因</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/formatting.py" line="-3"/>
        <source>already accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>declined</source>
        <translation>已婉拒</translation>
    </message>
    <message>
        <location line="-58"/>
        <location line="+56"/>
        <location line="+4"/>
        <source>expired</source>
        <translation>已過期</translation>
    </message>
    <message>
        <location line="-57"/>
        <source>in %n day(s)</source>
        <translation>%n 天後</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>in %n hour(s)</source>
        <translation>%n 小時後</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>in %n minute(s)</source>
        <translation>%n 分鐘後</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>not open</source>
        <translation>未開放</translation>
    </message>
</context>
<context>
    <name>IpWhitelistPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/ip_entry_delegate.py" line="+44"/>
        <location filename="../src/portal_admin/ui/panels/security/ip_whitelist_model.py" line="+34"/>
        <source>Address or network</source>
        <translation>位址或網段</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/ip_whitelist_model.py" line="+1"/>
        <source>Kind</source>
        <translation>類型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Added</source>
        <translation>新增時間</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>IPv4 address</source>
        <translation>IPv4 位址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IPv6 address</source>
        <translation>IPv6 位址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IPv4 network (CIDR)</source>
        <translation>IPv4 網段（CIDR）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IPv6 network (CIDR)</source>
        <translation>IPv6 網段（CIDR）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Enter an address or a network.</source>
        <translation>請輸入位址或網段。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Too long for an address.</source>
        <translation>超出位址的長度。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host bits are set: use the network address.</source>
        <translation>主機位元不為零：請使用網路位址。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The prefix length is not valid.</source>
        <translation>前置長度無效。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not an IPv4 or IPv6 address or CIDR network.</source>
        <translation>不是有效的 IPv4/IPv6 位址或 CIDR 網段。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/ip_whitelist.py" line="+211"/>
        <source>%1 entries are not valid: correct or remove them to save.</source>
        <translation>%1 個項目無效：請更正或移除後再儲存。</translation>
    </message>
    <message>
        <location line="+269"/>
        <source>&amp;Add</source>
        <translation>新增(&amp;A)</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>&amp;Disable</source>
        <translation>停用(&amp;D)</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>&amp;Enable</source>
        <translation>啟用(&amp;E)</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Save</source>
        <translation>儲存(&amp;S)</translation>
    </message>
    <message>
        <location line="-179"/>
        <source>(unknown)</source>
        <translation>（未知）</translation>
    </message>
    <message>
        <location line="-98"/>
        <source>1 entry is not valid: correct or remove it to save.</source>
        <translation>1 個項目無效：請更正或移除後再儲存。</translation>
    </message>
    <message>
        <location line="+264"/>
        <source>Add the entry</source>
        <translation>新增項目</translation>
    </message>
    <message>
        <location line="-168"/>
        <location line="+37"/>
        <source>Change the IP whitelist.</source>
        <translation>變更 IP 白名單。</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>Continue anyway</source>
        <translation>仍要繼續</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>Could not disable the IP whitelist</source>
        <translation>無法停用 IP 白名單</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>Could not enable the IP whitelist</source>
        <translation>無法啟用 IP 白名單</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>Could not save the IP whitelist</source>
        <translation>無法儲存 IP 白名單</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Disable the IP whitelist.</source>
        <translation>停用 IP 白名單。</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>Disable the whitelist</source>
        <translation>停用白名單</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Rever&amp;t</source>
        <translation>還原(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Discard the changes</source>
        <translation>捨棄變更</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>Enable the whitelist</source>
        <translation>啟用白名單</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Entry problems</source>
        <translation>項目問題</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>IPv4 or IPv6 address, or CIDR network</source>
        <translation>IPv4/IPv6 位址或 CIDR 網段</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New entry</source>
        <translation>新項目</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>New entry check</source>
        <translation>新項目檢查結果</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Remove the selected entry</source>
        <translation>移除所選項目</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Save the whitelist</source>
        <translation>儲存白名單</translation>
    </message>
    <message>
        <location line="-250"/>
        <source>The address you connect from is not known.</source>
        <translation>無法確定您目前的連線位址。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>The whitelist does not contain %1, the address you connect from. Once it is enforced, the server may refuse this program: you may lock yourself out. Continue anyway?</source>
        <translation>白名單中不包含您目前的連線位址 %1。白名單生效後，伺服器可能會拒絕本程式的連線，您可能會將自己鎖在外面。仍要繼續嗎？</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>The whitelist is disabled: every address may sign in.</source>
        <translation>白名單已停用：所有位址皆可登入。</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>The whitelist is enabled: only the addresses below may sign in.</source>
        <translation>白名單已啟用：只有下列位址可以登入。</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Unsaved changes.</source>
        <translation>有未儲存的變更。</translation>
    </message>
    <message>
        <location line="+250"/>
        <source>Whitelist entries</source>
        <translation>白名單項目</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Whitelist state</source>
        <translation>白名單狀態</translation>
    </message>
    <message>
        <location line="-246"/>
        <source>You connect from %1, which the whitelist contains.</source>
        <translation>您目前的連線位址 %1 在白名單中。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>You connect from %1, which the whitelist does not contain.</source>
        <translation>您目前的連線位址 %1 不在白名單中。</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>You may lock yourself out</source>
        <translation>您可能會將自己鎖在外面</translation>
    </message>
    <message>
        <location line="+184"/>
        <source>Your address</source>
        <translation>您的位址</translation>
    </message>
</context>
<context>
    <name>JobsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/panel.py" line="+37"/>
        <source>Job</source>
        <translation>工作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skipped</source>
        <translation>略過</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Left</source>
        <translation>剩餘</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>建立時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>帳號</translation>
    </message>
    <message>
        <location line="+126"/>
        <source>Select one job.</source>
        <extracomment>One job as the panel lists it. A job file that cannot be opened (damaged, removed, another user&apos;s) is said here.</extracomment>
        <translation>請選擇一個工作。</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>Bulk changes made from this computer. A paused or interrupted job can be resumed: targets whose outcome was not known are read back first, so nothing is changed twice.</source>
        <translation>在此電腦上進行的批次變更。已暫停或中斷的工作可以繼續：會先重新讀取結果未知的目標，因此不會重複變更。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Refresh</source>
        <translation>重新整理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Resume</source>
        <translation>繼續(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Show…</source>
        <translation>顯示(&amp;S)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rever&amp;t the job…</source>
        <translation>還原此工作(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bulk jobs</source>
        <translation>批次工作</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Job files: %1</source>
        <translation>工作檔案：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Jobs</source>
        <translation>工作</translation>
    </message>
</context>
<context>
    <name>JournalPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/journal_panel.py" line="+49"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>帳戶</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Targets</source>
        <translation>對象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>變更內容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>結果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code</source>
        <translation>代碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id</source>
        <translation>請求 ID</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/operation_titles.py" line="+23"/>
        <source>Succeeded</source>
        <extracomment>A journal record&apos;s outcome, by its code (the Journal panel&apos;s words, its packs&apos; too).</extracomment>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refused</source>
        <translation>遭拒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/journal_panel.py" line="+29"/>
        <source>Sent, outcome not recorded</source>
        <extracomment>Rows shown at most (the newest); exports write every matching record. Account names asked of the server at most per reading of the journal. An intent whose outcome record is missing: the program stopped before the answer.</extracomment>
        <translation>已送出，結果未記錄</translation>
    </message>
    <message>
        <location line="+276"/>
        <source>The journal is empty: no change was sent from this computer.</source>
        <extracomment>Account ids -&gt; names, read from the signed-in server (&quot;&quot; when it has none).</extracomment>
        <translation>日誌為空：這部電腦尚未送出任何變更。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The chain verifies: %1 records, head %2.</source>
        <translation>鏈驗證通過：%1 筆記錄，鏈頭 %2。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 new segment(s) after a cut-off record (a crash).</source>
        <translation>在被截斷的記錄（當機）之後有 %1 個新區段。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>But %1 record(s) are not authenticated (the first: record %2): no checkpoint of this installation vouches for them and this program did not write them. A revert leaves them alone unless their job file confirms them.</source>
        <translation>但有 %1 筆記錄未經驗證（第一筆：記錄 %2）：此安裝沒有任何檢查點為它們擔保，它們也不是本程式寫入的。除非其工作檔能確認它們，還原時不會處理它們。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The journal does not match its signed checkpoints: %1.</source>
        <translation>變更日誌與其簽署的檢查點不符：%1。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The chain is BROKEN at line %1 (record %2): %3.</source>
        <translation>鏈在第 %1 行（記錄 %2）處已損毀：%3。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>%1 records written to %2.</source>
        <translation>已將 %1 筆記錄寫入 %2。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Filter by account, operation or id</source>
        <translation>依帳戶、操作或 ID 篩選</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Journal filter</source>
        <translation>日誌篩選</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All outcomes</source>
        <translation>所有結果</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Outcome filter</source>
        <translation>結果篩選</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refresh</source>
        <translation>重新整理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Read the journal again (F5)</source>
        <translation>重新讀取變更日誌（F5）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export CSV…</source>
        <translation>匯出 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export JSON…</source>
        <translation>匯出 JSON…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence pack…</source>
        <translation>證據套件…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Revert…</source>
        <translation>還原(&amp;R)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set the selected changes back to their values before</source>
        <translation>將所選變更還原為變更前的值</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A signed zip of the records shown: CSV and a report</source>
        <translation>所顯示記錄的簽署 zip：CSV 與報告</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Journal of changes</source>
        <translation>變更日誌</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Journal</source>
        <translation>變更日誌</translation>
    </message>
</context>
<context>
    <name>KeyNotice</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/key_notice.py" line="+97"/>
        <source>Got it</source>
        <extracomment>Beside the key file: the key file&apos;s path once the person has been told of it.</extracomment>
        <translation>知道了</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This computer has no usable keyring, so the key that signs your evidence packs, review decisions and journal checkpoints is kept in a file only you can read: %1. Whoever can read that file can sign as this installation: keep it, and its backups, to yourself. Help &gt; About shows it again.</source>
        <translation>這台電腦沒有可用的金鑰圈，因此為您的證據套件、審查決定和變更日誌檢查點簽署的金鑰保存在一個只有您能讀取的檔案中：%1。任何能讀取該檔案的人都能以本安裝的身分簽署：請妥善保管該檔案及其備份，勿讓他人讀取。「說明 &gt; 關於」會再次顯示此資訊。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Where the signing key is kept</source>
        <translation>簽署金鑰的保存位置</translation>
    </message>
</context>
<context>
    <name>KioskMarking</name>
    <message>
        <location filename="../src/portal_admin/ui/kiosk/marking.py" line="+64"/>
        <source>Read-only · %1</source>
        <extracomment>Height of the watermark strip added below a screenshot, in pixels (device independent). Below this width the strip has two lines (time, then account) and is at least this wide.</extracomment>
        <translation>唯讀 · %1</translation>
    </message>
</context>
<context>
    <name>ListView</name>
    <message>
        <location filename="../src/portal_admin/ui/lists/paged_list.py" line="+121"/>
        <source>Retry</source>
        <extracomment>How many rows fitting a column to its contents looks at (those on screen first). From this width (px) the detail pane sits beside the list; under it, below the list. The narrowest a fitted column gets to spare a horizontal scroll bar (px). Qt&apos;s &quot;no limit&quot; for a widget&apos;s size. The state&apos;s icon, above the text (``set_icon``). &quot;Clear filters&quot;, shown when filters hide every row. The panel&apos;s own first step on an empty list (``PagedList.set_empty_action``).</extracomment>
        <translation>重試</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Retry loading the list</source>
        <translation>重新載入清單</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>List state</source>
        <translation>清單狀態</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Clear filters</source>
        <translation>清除篩選條件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Clear the filters of the list</source>
        <translation>清除清單的篩選條件</translation>
    </message>
    <message>
        <location line="+334"/>
        <source>Export failed</source>
        <extracomment>The row object of the current row, or None. Enter or a double click on a row: the row object (open its detail). Delete: the selected row objects (start the delete action, with its confirmation). F2: the current row object (edit it). True once the person chose column widths (or a view brought some): not fitted then. The context menu, copies and keys (``ui/lists/table_actions.py``). Fits the columns again once a resize (a maximised window) has settled.</extracomment>
        <translation>匯出失敗</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>Columns</source>
        <translation>欄位</translation>
    </message>
    <message>
        <location line="+148"/>
        <location filename="../src/portal_admin/ui/lists/table_actions.py" line="+288"/>
        <source>Copy</source>
        <translation>複製</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/lists/table_actions.py" line="-48"/>
        <source>Copy id</source>
        <translation>複製 ID</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Row actions</source>
        <extracomment>The translation context of the menu&apos;s texts (they began in the list widget, then ``ListView``). Enter or a double click on a row: the row object (open it, or do its main thing). Delete: the chosen row objects (start the delete action, with its confirmation). F2: the current row object (edit it).</extracomment>
        <translation>列操作</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Copy cell</source>
        <translation>複製儲存格</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy rows as text</source>
        <translation>將這些列複製為文字</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy row as text</source>
        <translation>將此列複製為文字</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copy rows as CSV</source>
        <translation>將這些列複製為 CSV</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy row as CSV</source>
        <translation>將此列複製為 CSV</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copy ids</source>
        <translation>複製 ID</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/lists/paged_list.py" line="-107"/>
        <source>Loading…</source>
        <translation>正在載入…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Nothing to show.</source>
        <translation>沒有可顯示的內容。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing matches these filters.</source>
        <translation>沒有符合這些篩選條件的項目。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The list could not be loaded.</source>
        <translation>無法載入清單。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Error code: %1</source>
        <translation>錯誤代碼：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Request id: %1</source>
        <translation>請求 ID：%1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Showing %1 of %2</source>
        <translation>已顯示 %1 筆，共 %2 筆</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Loading more…</source>
        <translation>正在載入更多…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%n selected</source>
        <translation>已選取 %n 項</translation>
    </message>
    <message>
        <location line="+34"/>
        <location line="+4"/>
        <source>Refresh</source>
        <translation>重新整理</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Reload the list (F5)</source>
        <translation>重新載入清單（F5）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export CSV…</source>
        <translation>匯出 CSV…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export every row of this view to a CSV file</source>
        <translation>將此檢視的所有資料列匯出至 CSV 檔案</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export CSV</source>
        <translation>匯出 CSV</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+20"/>
        <source>List</source>
        <translation>清單</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>List status</source>
        <translation>清單狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filters</source>
        <translation>篩選條件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Saved views: filters, sort and columns kept on this computer</source>
        <translation>已儲存的檢視：篩選條件、排序和欄儲存在這台電腦上</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Views</source>
        <translation>檢視</translation>
    </message>
</context>
<context>
    <name>LoginHistoryPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/history.py" line="+50"/>
        <source>All results</source>
        <extracomment>Result filter choices: (key, server value, source text).</extracomment>
        <translation>所有結果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Successful</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocked</source>
        <translation>已封鎖</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Time</source>
        <translation>時間</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Result</source>
        <translation>結果</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Client IP</source>
        <translation>用戶端 IP</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Device</source>
        <translation>裝置</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Failure reason</source>
        <translation>失敗原因</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>User agent</source>
        <translation>使用者代理程式</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+199"/>
        <source>Show as chart</source>
        <translation>以圖表顯示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show as table</source>
        <translation>以表格顯示</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Switches between the chart and a table of its numbers</source>
        <translation>在圖表和其數字表格之間切換</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>No sign-ins recorded yet.</source>
        <translation>尚無登入記錄。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No sign-ins match these filters.</source>
        <translation>沒有符合這些篩選條件的登入。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Result:</source>
        <translation>結果(&amp;R)：</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Based on all %1 sign-ins of this filter.</source>
        <translation>根據此篩選條件下的全部 %1 次登入。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Chart note</source>
        <translation>圖表說明</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>From</source>
        <translation>從</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>From date</source>
        <translation>開始日期</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Loading the chart…</source>
        <translation>正在載入圖表…</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Sign-ins per day, as a table</source>
        <translation>每日登入次數（表格）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Login history</source>
        <translation>登入記錄</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>Login result</source>
        <translation>登入結果</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+2"/>
        <source>Sign-ins per day</source>
        <translation>每日登入次數</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>The chart shows the latest %1 of %2 sign-ins.</source>
        <translation>圖表顯示 %2 次登入中最近的 %1 次。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>To</source>
        <translation>至</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>To date</source>
        <translation>結束日期</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/lock.py" line="+58"/>
        <location line="+10"/>
        <source>Locked</source>
        <translation>已鎖定</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>The window was locked. Sign in again to continue; your work is kept.</source>
        <translation>視窗已鎖定。請重新登入以繼續，您的工作內容都會保留。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Sign in again…</source>
        <translation>重新登入…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign in again to unlock</source>
        <translation>重新登入以解除鎖定</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/window.py" line="+410"/>
        <source>The panel “%1” could not be opened.</source>
        <extracomment>A language code from the View &gt; Language menu. Emitted when the window closes (the application then quits). Kiosk mode: the idle time ran out; the session is to be signed out. The kiosk settings (None outside kiosk mode). Once per key file: where the evidence-signing key is kept (no keyring).</extracomment>
        <translation>無法開啟「%1」面板。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="+77"/>
        <source>No keyring: the sign-in is kept in memory only</source>
        <extracomment>Shown when no keyring can keep the sign-in: it lasts only while the program runs.</extracomment>
        <translation>無金鑰圈：登入狀態僅保存在記憶體中</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/window.py" line="+90"/>
        <source>Not signed in</source>
        <translation>未登入</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Signed-in account</source>
        <translation>目前登入的帳號</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>System Portal Admin — %1</source>
        <translation>System Portal Admin — %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>System Portal Admin</source>
        <translation>System Portal Admin</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Log &amp;out</source>
        <translation>登出(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Log out</source>
        <translation>登出</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sign &amp;out</source>
        <translation>登出(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign out</source>
        <translation>登出</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>READ-ONLY SESSION — nothing can be changed here</source>
        <translation>唯讀工作階段——此處無法進行任何變更</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Read-only session</source>
        <translation>唯讀工作階段</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Lock</source>
        <translation>鎖定(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit</source>
        <translation>結束(&amp;Q)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Refresh</source>
        <translation>重新整理(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Command &amp;palette…</source>
        <translation>命令面板(&amp;P)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;File</source>
        <translation>檔案(&amp;F)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change &amp;password…</source>
        <translation>變更密碼(&amp;P)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;About…</source>
        <translation>關於(&amp;A)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Help</source>
        <translation>說明(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Language</source>
        <translation>語言(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;View</source>
        <translation>檢視(&amp;V)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Panels</source>
        <translation>面板</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Panel</source>
        <translation>面板</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a panel on the left.</source>
        <translation>請從左側選擇面板。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="+15"/>
        <source>Connection state</source>
        <translation>連線狀態</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Secure Channel state</source>
        <translation>安全通道狀態</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Last request id:</source>
        <translation>最近請求 ID：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Last request id</source>
        <translation>最近請求 ID</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>none yet</source>
        <translation>尚無</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Working</source>
        <translation>處理中</translation>
    </message>
</context>
<context>
    <name>MessageBar</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/message_bar.py" line="+101"/>
        <source>Dismiss</source>
        <translation>關閉</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Dismiss the message</source>
        <translation>關閉此訊息</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>Error code: %1</source>
        <translation>錯誤代碼：%1</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Message</source>
        <translation>訊息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Message details</source>
        <translation>訊息詳細資料</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Message summary</source>
        <translation>訊息摘要</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Request id: %1</source>
        <translation>請求 ID：%1</translation>
    </message>
</context>
<context>
    <name>MfaPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/mfa.py" line="+50"/>
        <source>Method</source>
        <translation>方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enabled</source>
        <translation>已啟用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primary</source>
        <translation>主要</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verified</source>
        <translation>已驗證</translation>
    </message>
    <message>
        <location line="+197"/>
        <source>%1 of %2 backup codes remaining</source>
        <translation>剩餘 %1 組備用碼（共 %2 組）</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>A new set of backup codes replaces the current one: your old codes stop working at once. The new codes are shown only once.</source>
        <translation>新的一組備用碼將取代目前的備用碼，舊備用碼會立即失效。新備用碼只會顯示一次。</translation>
    </message>
    <message>
        <location line="+77"/>
        <location line="+1"/>
        <source>Backup codes</source>
        <translation>備用碼</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Backup codes remaining</source>
        <translation>剩餘備用碼</translation>
    </message>
    <message>
        <location line="-70"/>
        <source>Could not generate backup codes</source>
        <translation>無法產生備用碼</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>Could not revoke the authenticator</source>
        <translation>無法撤銷驗證器</translation>
    </message>
    <message>
        <location line="+19"/>
        <location line="+84"/>
        <source>Generate new backup codes</source>
        <translation>產生新的備用碼</translation>
    </message>
    <message>
        <location line="-78"/>
        <source>Generate new codes</source>
        <translation>產生新備用碼</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>Generate new codes…</source>
        <translation>產生新備用碼…</translation>
    </message>
    <message>
        <location line="-142"/>
        <source>No backup codes have been generated.</source>
        <translation>尚未產生備用碼。</translation>
    </message>
    <message>
        <location line="-134"/>
        <source>Not verified</source>
        <translation>未驗證</translation>
    </message>
    <message>
        <location line="+166"/>
        <source>Revoke</source>
        <translation>撤銷</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>Revoke authenticator…</source>
        <translation>撤銷驗證器…</translation>
    </message>
    <message>
        <location line="-108"/>
        <location line="+111"/>
        <source>Revoke the authenticator</source>
        <translation>撤銷驗證器</translation>
    </message>
    <message>
        <location line="-110"/>
        <source>Sign-in codes from your authenticator app will stop working. You will sign in with email codes until you set up an authenticator again.</source>
        <translation>驗證器應用程式產生的登入驗證碼將會失效。在重新設定驗證器之前，您將使用電子郵件驗證碼登入。</translation>
    </message>
    <message>
        <location line="+101"/>
        <location line="+2"/>
        <location line="+2"/>
        <source>Sign-in methods</source>
        <translation>登入驗證方式</translation>
    </message>
    <message>
        <location line="-150"/>
        <source>The authenticator is not set up.</source>
        <translation>尚未設定驗證器。</translation>
    </message>
</context>
<context>
    <name>NotificationChecks</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/validation.py" line="+26"/>
        <source>%1 is required.</source>
        <translation>%1為必填。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is longer than %2 characters.</source>
        <translation>%1超過 %2 個字元。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The code needs 2 to 32 letters, digits or underscores, starting with a letter.</source>
        <translation>代碼須由 2 至 32 個字母、數字或底線組成，並以字母開頭。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 must be an http or https address.</source>
        <translation>%1必須是 http 或 https 網址。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 is not valid JSON (line %2, column %3).</source>
        <translation>%1不是有效的 JSON（第 %2 行，第 %3 欄）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 must be a JSON object {…}.</source>
        <translation>%1必須是 JSON 物件 {…}。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 is not a host name.</source>
        <translation>%1不是有效的主機名稱。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 is not an email address.</source>
        <translation>%1不是有效的電子郵件地址。</translation>
    </message>
</context>
<context>
    <name>NotificationPanels</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/record_panel.py" line="+151"/>
        <source>Changes are not available: %1</source>
        <extracomment>The operation id, given the current row (e.g. enable or disable by status). Runner topics that make this panel reload. The factory (``build``) starts loading, through the controller; ``reload()`` loads again what follows the language. Set by the subclass.</extracomment>
        <translation>無法進行變更：%1</translation>
    </message>
</context>
<context>
    <name>Notifications</name>
    <message>
        <location line="+117"/>
        <source>Could not load the lists of choices</source>
        <translation>無法載入選項清單</translation>
    </message>
</context>
<context>
    <name>OfflineReview</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/offline.py" line="+51"/>
        <source>Review campaign (not signed in)</source>
        <translation>審閱審查活動（未登入）</translation>
    </message>
</context>
<context>
    <name>OperationTitles</name>
    <message>
        <location filename="../src/portal_admin/ui/operation_titles.py" line="+7"/>
        <source>Ask for a password reset</source>
        <extracomment>The title of every mutating operation, by id.</extracomment>
        <translation>申請重設密碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset the password</source>
        <translation>重設密碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change own password</source>
        <translation>變更自己的密碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the first password</source>
        <translation>設定初始密碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the IP whitelist</source>
        <translation>設定 IP 白名單</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enforce the IP whitelist</source>
        <translation>啟用 IP 白名單</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop enforcing the IP whitelist</source>
        <translation>停用 IP 白名單</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Generate backup codes</source>
        <translation>產生備用碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the authenticator app</source>
        <translation>移除驗證器應用程式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mail a password reset link</source>
        <translation>寄送密碼重設連結</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change account status</source>
        <translation>變更帳號狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit an account</source>
        <translation>編輯帳號</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite someone</source>
        <translation>邀請使用者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel an invitation</source>
        <translation>取消邀請</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create a channel type</source>
        <translation>建立管道類型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a channel type</source>
        <translation>刪除管道類型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Disable a channel type</source>
        <translation>停用管道類型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Enable a channel type</source>
        <translation>啟用管道類型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit a channel type</source>
        <translation>編輯管道類型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Activate a channel</source>
        <translation>啟用管道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create a channel</source>
        <translation>建立管道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate a channel</source>
        <translation>停用管道</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a channel</source>
        <translation>刪除管道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit a channel</source>
        <translation>編輯管道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check the incoming mail settings</source>
        <translation>檢查收信設定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Check the outgoing mail settings</source>
        <translation>檢查寄信設定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a role</source>
        <translation>刪除角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create a portal</source>
        <translation>建立入口網站</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>(none)</source>
        <extracomment>The kind of row an operation&apos;s ``status`` belongs to, by the id&apos;s prefix.</extracomment>
        <translation>（無）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 (was %2)</source>
        <translation>%1（原為 %2）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1: %2 → %3</source>
        <translation>%1：%2 → %3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>bulk job %1</source>
        <translation>批次工作 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>reverts %1</source>
        <translation>還原紀錄 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>reason: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reason: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, </source>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>OwnInvitations</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/own.py" line="+172"/>
        <source>&amp;Show:</source>
        <translation>顯示(&amp;S)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Invitation statuses to show</source>
        <translation>要顯示的邀請狀態</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>My invitations</source>
        <translation>我的邀請</translation>
    </message>
</context>
<context>
    <name>PackCheck</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/pack_check_dialog.py" line="+84"/>
        <source>this installation&apos;s key</source>
        <extracomment>Who signed, by ``PackVerification.trust``.</extracomment>
        <translation>此安裝的金鑰</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the key you pinned</source>
        <translation>您指定的金鑰</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a key you do not trust</source>
        <translation>您不信任的金鑰</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>the trusted key “%1”</source>
        <translation>受信任的金鑰「%1」</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>changed: %1</source>
        <extracomment>The problem that means the pack&apos;s key did not sign it. What a pack check finds, as ``evidence.pack.verify_pack`` says it: a fixed sentence, or ``WHAT: NAME`` (``changed: accounts.csv``); a problem not listed here is shown as written.</extracomment>
        <translation>已變更：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed: %1</source>
        <translation>已移除：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>added: %1</source>
        <translation>已新增：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in the zip twice: %1</source>
        <translation>在 zip 中出現兩次：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>damaged, cannot be read: %1</source>
        <translation>已損壞，無法讀取：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>encrypted (no pack is): %1</source>
        <translation>已加密（證據套件不會加密）：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compressed in a way no pack is: %1</source>
        <translation>使用了證據套件不會使用的壓縮方式：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>expands far more than a pack&apos;s file can (not read): %1</source>
        <translation>解壓縮後遠大於證據套件中的檔案可能的大小（未讀取）：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>named twice in the manifest: %1</source>
        <translation>在清單中出現兩次：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the file does not exist</source>
        <translation>檔案不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is not a zip file</source>
        <translation>它不是 zip 檔案</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it holds far more files than a pack does</source>
        <translation>它包含的檔案遠多於證據套件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its files together are larger than a pack may be</source>
        <translation>其檔案總大小超過證據套件的上限</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it has no signed manifest</source>
        <translation>它沒有簽署的清單</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its manifest cannot be read</source>
        <translation>無法讀取它的清單</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its manifest is larger than a pack&apos;s can be</source>
        <translation>其清單超過證據套件清單的大小上限</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its signature cannot be read</source>
        <translation>無法讀取其簽章</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it was made by a newer version of the program</source>
        <translation>它由較新版本的程式建立</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the manifest&apos;s signature does not verify</source>
        <translation>清單的簽章驗證失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>public_key.pem is not the key that signed the manifest</source>
        <translation>public_key.pem 不是簽署清單的金鑰</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it was signed by another key than the one pinned</source>
        <translation>它由指定金鑰以外的金鑰簽署</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>unknown (the signature does not verify; the key below is only what the pack claims)</source>
        <extracomment>Tones (ui/theme/tones.py) of a good, doubtful and bad finding: they follow the theme.</extracomment>
        <translation>未知（簽章驗證失敗；下方的金鑰只是證據套件自稱的金鑰）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>unknown (no signing key could be read)</source>
        <translation>未知（無法讀取簽署金鑰）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The pack %1 is intact: every file matches its signed manifest.</source>
        <translation>證據套件 %1 完好：每個檔案都與其簽署清單一致。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The pack %1 is not verified: a key you do not trust signed it.</source>
        <translation>證據套件 %1 未通過驗證：簽署的是您不信任的金鑰。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Its files match its manifest, but anyone can make a key and sign a pack with it. Compare the fingerprint above with the one the signer reads to you from their program&apos;s Help &gt; About, by another channel (in person or by telephone). If they are the same, trust the key and check the pack again.</source>
        <translation>其檔案與清單一致，但任何人都可以產生金鑰並用它簽署證據套件。請透過其他管道（當面或電話）將上方的指紋與簽署者從其程式「說明 &gt; 關於」中唸給您的指紋進行比對。如果兩者相同，請信任該金鑰並再次檢查證據套件。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The pack %1 was changed after it was signed.</source>
        <translation>證據套件 %1 在簽署後遭到變更。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is not an evidence pack.</source>
        <translation>%1 不是證據套件。</translation>
    </message>
    <message>
        <location line="+192"/>
        <source>Evidence pack check</source>
        <extracomment>Check this pack (a ``Path``) again: a key was trusted, or the person asked. The person wants the list of trusted keys.</extracomment>
        <translation>證據套件檢查</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pack:</source>
        <translation>證據套件：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed by:</source>
        <translation>簽署者：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Fingerprint:</source>
        <translation>指紋(&amp;F)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fingerprint of the signing key</source>
        <translation>簽署金鑰的指紋</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy</source>
        <translation>複製</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the fingerprint</source>
        <translation>複製指紋</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What was found:</source>
        <translation>發現的問題：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What was found</source>
        <translation>發現的問題</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust this key…</source>
        <translation>信任此金鑰…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trusted keys…</source>
        <translation>受信任的金鑰…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check again</source>
        <translation>再次檢查</translation>
    </message>
</context>
<context>
    <name>Palette</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/palette_entries.py" line="+21"/>
        <source>Refresh the current panel</source>
        <translation>重新整理目前面板</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lock the window</source>
        <translation>鎖定視窗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change my password</source>
        <translation>變更我的密碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sign out</source>
        <translation>登出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About this program</source>
        <translation>關於本程式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quit</source>
        <translation>結束</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Language: %1</source>
        <translation>語言：%1</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>View: %1</source>
        <translation>檢視：%1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/command_palette.py" line="+48"/>
        <source>Panel</source>
        <translation>面板</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>帳戶</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved view</source>
        <translation>已儲存的檢視</translation>
    </message>
    <message>
        <location line="+112"/>
        <location line="+30"/>
        <source>Looking for accounts…</source>
        <extracomment>Where the focus was when the palette opened: it goes back there on closing.</extracomment>
        <translation>正在尋找帳戶…</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Nothing matches.</source>
        <translation>沒有相符的項目。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>No account has this e-mail, name or id.</source>
        <translation>沒有帳戶使用此電子郵件、名稱或 ID。</translation>
    </message>
    <message>
        <location line="+65"/>
        <location line="+1"/>
        <source>Command palette</source>
        <translation>命令面板</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Type a panel, a command, or an account&apos;s e-mail, name or id</source>
        <translation>輸入面板、命令，或帳戶的電子郵件、名稱或 ID</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Search</source>
        <translation>搜尋</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Results</source>
        <translation>結果</translation>
    </message>
</context>
<context>
    <name>Panels</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/__init__.py" line="+34"/>
        <source>Accounts</source>
        <translation>帳號</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Roles</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Portals</source>
        <translation>入口網站</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/__init__.py" line="+30"/>
        <source>Invitations</source>
        <translation>邀請</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>My invitations</source>
        <translation>我的邀請</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/__init__.py" line="+31"/>
        <source>Notification channel types</source>
        <translation>通知管道類型</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Notification channels</source>
        <translation>通知管道</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reference/__init__.py" line="+30"/>
        <source>Constants</source>
        <translation>常數</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Profile</source>
        <translation>個人資料</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/__init__.py" line="+40"/>
        <source>Sessions</source>
        <translation>工作階段</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Login history</source>
        <translation>登入記錄</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Multi-factor authentication</source>
        <translation>多重要素驗證</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>IP whitelist</source>
        <translation>IP 白名單</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/__init__.py" line="+23"/>
        <source>Bulk jobs</source>
        <translation>批次工作</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/__init__.py" line="+33"/>
        <source>Snapshots</source>
        <translation>快照</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Journal</source>
        <translation>變更日誌</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/__init__.py" line="+25"/>
        <source>Review campaigns</source>
        <translation>審查活動</translation>
    </message>
</context>
<context>
    <name>Permissions</name>
    <message>
        <location filename="../src/portal_admin/ui/permissions.py" line="+57"/>
        <source>This session is read-only.</source>
        <translation>此工作階段為唯讀。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your role lacks the permission {permission}.</source>
        <translation>您的角色缺少 {permission} 權限。</translation>
    </message>
</context>
<context>
    <name>PortalsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+8"/>
        <source>Active</source>
        <translation>已啟用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inactive</source>
        <translation>未啟用</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Type</source>
        <translation>類型</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Created</source>
        <translation>建立時間</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Institution</source>
        <translation>機構</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+64"/>
        <source>%1 of at most %2 characters</source>
        <translation>%1/%2 個字元</translation>
    </message>
    <message>
        <location line="+211"/>
        <source>&amp;Domain:</source>
        <translation>網域(&amp;D)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Institution:</source>
        <translation>機構(&amp;I)：</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>&amp;Remark:</source>
        <translation>備註(&amp;R)：</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>&amp;Type:</source>
        <translation>類型(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+74"/>
        <source>Choose a portal type.</source>
        <extracomment>The created portal record. (code, label) pairs of the portal types. The panel: it keeps the tasks and knows what the signed-in account may do.</extracomment>
        <translation>請選擇入口網站類型。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+15"/>
        <source>Choose a portal type…</source>
        <translation>選擇入口網站類型…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+53"/>
        <source>Could not create the portal</source>
        <translation>無法建立入口網站</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-23"/>
        <source>Create a portal for an institution. The server offers no way to list portals: the table below shows only the portals created in this session.</source>
        <translation>為機構建立入口網站。伺服器不提供入口網站清單，下表僅顯示本次工作階段中建立的入口網站。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Create portal</source>
        <translation>建立入口網站</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Create the portal</source>
        <translation>建立入口網站</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="-23"/>
        <source>Create the portal %1.</source>
        <translation>建立入口網站 %1。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-25"/>
        <source>Created portal</source>
        <translation>已建立的入口網站</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Created:</source>
        <translation>建立時間：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="-129"/>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-23"/>
        <source>Domain</source>
        <translation>網域</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+20"/>
        <source>Domain:</source>
        <translation>網域：</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Id:</source>
        <translation>ID：</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Institution id</source>
        <translation>機構 ID</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Institution:</source>
        <translation>機構：</translation>
    </message>
    <message>
        <location line="-44"/>
        <source>New portal</source>
        <translation>新增入口網站</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Optional</source>
        <translation>選填</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Optional: empty means your own institution</source>
        <translation>選填：留空表示您自己的機構</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Portal type</source>
        <translation>入口網站類型</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Portals created in this &amp;session:</source>
        <translation>本次工作階段中建立的入口網站(&amp;S)：</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Portals</source>
        <translation>入口網站</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>Portals created in this session</source>
        <translation>本次工作階段中建立的入口網站</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+12"/>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-11"/>
        <source>Remark</source>
        <translation>備註</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+21"/>
        <source>Remark:</source>
        <translation>備註：</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Status:</source>
        <translation>狀態：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+93"/>
        <source>The domain is longer than %1 characters.</source>
        <translation>網域超過 %1 個字元。</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>The domain is required.</source>
        <translation>網域為必填。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-81"/>
        <source>The portal %1 was created.</source>
        <extracomment>Shown, the controller starts loading (``controller.start()``).</extracomment>
        <translation>入口網站 %1 已建立。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+13"/>
        <source>The remark is longer than %1 characters.</source>
        <translation>備註超過 %1 個字元。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+79"/>
        <source>Type:</source>
        <translation>類型：</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Why the portal cannot be created yet</source>
        <translation>目前無法建立入口網站的原因</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>e.g. portal.example.com (required)</source>
        <translation>例如 portal.example.com（必填）</translation>
    </message>
</context>
<context>
    <name>ProfileEditing</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/actions.py" line="+77"/>
        <source>The profile was not saved: your organisation manages it, or one of the same name.</source>
        <translation>設定檔未儲存：它由您的組織管理，或已有同名的受管理設定檔。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The profiles could not be saved: the file is not writable.</source>
        <translation>無法儲存設定檔：檔案無法寫入。</translation>
    </message>
</context>
<context>
    <name>ProfileEditor</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/editor.py" line="+304"/>
        <source>The server showed no certificate to pin.</source>
        <extracomment>An import was accepted: the whole new list of profiles (for ``ProfileStore.save``). Makes the in-process transport the built-in sandbox is tested over.</extracomment>
        <translation>伺服器沒有提供可釘選的憑證。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The pin was read from the server: compare it with the fingerprint your IT department gives before saving.</source>
        <translation>已從伺服器讀取釘選值：儲存前請與 IT 部門提供的指紋進行核對。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 profiles were exported to %2 (without access codes).</source>
        <translation>已將 %1 個連線設定檔匯出到 %2（不含存取碼）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The profiles were imported.</source>
        <translation>連線設定檔已匯入。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>CA bundle</source>
        <translation>CA 憑證套件</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>憑證 (*.pem *.crt *.cer);;所有檔案 (*)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Connection profile</source>
        <translation>連線設定檔</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Name:</source>
        <translation>名稱(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Profile name</source>
        <translation>設定檔名稱</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Base URL:</source>
        <translation>基礎 URL(&amp;B)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base URL</source>
        <translation>基礎 URL</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Portal &amp;access code:</source>
        <translation>入口網站存取碼(&amp;A)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal access code</source>
        <translation>入口網站存取碼</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Workspace id:</source>
        <translation>工作區 ID(&amp;W)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace id</source>
        <translation>工作區 ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Language:</source>
        <translation>語言(&amp;L)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>語言</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Environment:</source>
        <translation>環境(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Environment</source>
        <translation>環境</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;CA bundle:</source>
        <translation>CA 憑證套件(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CA bundle file</source>
        <translation>CA 憑證套件檔案</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Plain http:</source>
        <translation>明文 http：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow plain http to other hosts</source>
        <translation>允許以明文 http 連線至其他主機</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Secure Channel:</source>
        <translation>安全通道：</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+43"/>
        <source>Allow legacy padding</source>
        <translation>允許舊版填補</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>&amp;Idle lock:</source>
        <translation>閒置鎖定(&amp;I)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Idle lock minutes</source>
        <translation>閒置鎖定分鐘數</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Kiosk:</source>
        <translation>資訊站模式：</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+37"/>
        <source>Read-only kiosk mode</source>
        <translation>唯讀資訊站模式</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>&amp;Proxy:</source>
        <translation>Proxy(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Proxy</source>
        <translation>Proxy</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Certi&amp;ficate pin:</source>
        <translation>憑證釘選(&amp;F)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Certificate pins (SHA-256)</source>
        <translation>憑證釘選值（SHA-256）</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Allow plain http to hosts other than this computer</source>
        <translation>允許以明文 http 連線至本機以外的主機</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Browse…</source>
        <translation>瀏覽…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Test connection</source>
        <translation>測試連線(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check the server as typed here, step by step, without signing in</source>
        <translation>依此處填寫的內容逐步檢查伺服器，不會登入</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Choose a CA bundle file</source>
        <translation>選擇 CA 憑證套件檔案</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System certificates</source>
        <translation>系統憑證</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> min</source>
        <translation> 分鐘</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Never</source>
        <translation>永不</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follow the system</source>
        <translation>跟隨系統</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>System settings</source>
        <translation>系統設定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No proxy</source>
        <translation>不使用 Proxy</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Manual</source>
        <translation>手動</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Proxy URL</source>
        <translation>Proxy URL</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No user name or password here: a proxy that needs them is set in HTTPS_PROXY, with the system setting.</source>
        <translation>此處不填使用者名稱或密碼：需要認證的 Proxy 請在 HTTPS_PROXY 中設定，並選擇系統設定。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not pinned</source>
        <translation>未釘選</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Read from server</source>
        <translation>從伺服器讀取(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Read the pin from the server</source>
        <translation>從伺服器讀取釘選值</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The built-in sandbox: it can be tested here, not changed.</source>
        <translation>內建沙箱：可以在此測試，但不能變更。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Managed by your organisation: this profile cannot be changed or deleted here.</source>
        <translation>由你的組織管理：此處無法變更或刪除此連線設定檔。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Managed</source>
        <translation>受管理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;xport…</source>
        <translation>匯出(&amp;X)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save the profiles to a file (without access codes)</source>
        <translation>將連線設定檔儲存到檔案（不含存取碼）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>I&amp;mport…</source>
        <translation>匯入(&amp;M)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add profiles from a file</source>
        <translation>從檔案新增連線設定檔</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Problems</source>
        <translation>問題</translation>
    </message>
</context>
<context>
    <name>ProfileFields</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reference/profile_panel.py" line="+39"/>
        <source>Email</source>
        <extracomment>The fields shown, in order: (key in the record or its extras, label source text).</extracomment>
        <translation>電子郵件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal</source>
        <translation>入口網站</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account id</source>
        <translation>帳號 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone</source>
        <translation>電話</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution id</source>
        <translation>機構 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>語言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>時區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>國家/地區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspaces</source>
        <translation>工作區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MFA methods</source>
        <translation>多重要素驗證方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Permission codes</source>
        <translation>權限代碼</translation>
    </message>
</context>
<context>
    <name>ProfilePanel</name>
    <message>
        <location line="+41"/>
        <source>%1 (primary)</source>
        <translation>%1（主要）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 in %2</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location line="+161"/>
        <source>%1:</source>
        <translation>%1：</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Change password</source>
        <translation>變更密碼</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Change password…</source>
        <translation>變更密碼…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Error</source>
        <translation>錯誤</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>My invitations</source>
        <translation>我的邀請</translation>
    </message>
    <message>
        <location line="-190"/>
        <source>No</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+205"/>
        <source>Profile</source>
        <translation>個人資料</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Profile details</source>
        <translation>個人資料詳細內容</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Refresh</source>
        <translation>重新整理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reload the profile</source>
        <translation>重新載入個人資料</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Signed-in account</source>
        <translation>目前登入的帳號</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>The profile could not be loaded.
%1</source>
        <extracomment>The person asked to change the password (also calls ``extras[&quot;change_password&quot;]``).</extracomment>
        <translation>無法載入個人資料。
%1</translation>
    </message>
    <message>
        <location line="-111"/>
        <source>Yes</source>
        <extracomment>Extras never shown as such (covered by another field, or internal).</extracomment>
        <translation>是</translation>
    </message>
</context>
<context>
    <name>ProfileTransfer</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/transfer.py" line="+40"/>
        <source>The file cannot be imported: %1 %2. Nothing was imported.</source>
        <translation>無法匯入該檔案：%1 %2。未匯入任何內容。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The file cannot be imported: %1. Nothing was imported.</source>
        <translation>無法匯入該檔案：%1。未匯入任何內容。</translation>
    </message>
    <message>
        <location line="+39"/>
        <location line="+108"/>
        <source>Import profiles</source>
        <translation>匯入連線設定檔</translation>
    </message>
    <message>
        <location line="-103"/>
        <source>Adds: %1</source>
        <translation>將新增：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Replaces: %1</source>
        <translation>將取代：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Skips (managed or built-in, never replaced): %1</source>
        <translation>將略過（受管理或內建，不會被取代）：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The file holds no profile.</source>
        <translation>該檔案中沒有連線設定檔。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Replace my profiles of the same name</source>
        <translation>取代我的同名連線設定檔</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Import</source>
        <translation>匯入(&amp;I)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Profile files (*.json)</source>
        <extracomment>A file was written: its path and the number of profiles in it. An import was accepted: the whole new list of profiles, ready for ``store.save``. Something went wrong (a translated sentence); nothing was written or imported.</extracomment>
        <translation>連線設定檔檔案 (*.json)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All files (*)</source>
        <translation>所有檔案 (*)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Export profiles</source>
        <translation>匯出連線設定檔</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The profiles cannot be exported: %1 %2.</source>
        <translation>無法匯出連線設定檔：%1 %2。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The file could not be written: %1</source>
        <translation>無法寫入檔案：%1</translation>
    </message>
</context>
<context>
    <name>ProfileValidation</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/store.py" line="+16"/>
        <source>The profile needs a name.</source>
        <translation>請為設定檔命名。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Another profile already has this name.</source>
        <translation>已有同名的設定檔。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The base URL must start with https:// and name a host.</source>
        <translation>基礎 URL 必須以 https:// 開頭並包含主機名稱。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Plain http to a host other than this computer needs “Allow plain http”.</source>
        <translation>以明文 http 連線至本機以外的主機前，請先勾選「允許以明文 http 連線至其他主機」。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The CA bundle file does not exist.</source>
        <translation>CA 憑證套件檔案不存在。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The proxy URL must be http://host:port or https://host:port, without a user name or password.</source>
        <translation>Proxy URL 必須是 http://host:port 或 https://host:port，且不含使用者名稱或密碼。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The certificate pin “%1” is not a SHA-256 fingerprint (64 hexadecimal digits).</source>
        <translation>憑證釘選值「%1」不是 SHA-256 指紋（64 個十六進位數字）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The idle lock time cannot be negative.</source>
        <translation>閒置鎖定時間不可為負數。</translation>
    </message>
</context>
<context>
    <name>ResumeOffer</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/resume_offer.py" line="+24"/>
        <source>Bulk jobs waiting</source>
        <translation>待繼續的批次工作</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 bulk job(s) on this server were paused or interrupted. Resume them from the Bulk jobs panel: targets whose outcome is unknown are read back first, so nothing is changed twice.</source>
        <translation>此伺服器上有 %1 個批次工作已暫停或中斷。請在「批次工作」面板中繼續：會先重新讀取結果未知的目標，因此不會重複變更。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Show the jobs</source>
        <translation>顯示工作</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Later</source>
        <translation>稍後</translation>
    </message>
</context>
<context>
    <name>RevertWindow</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_plan.py" line="-356"/>
        <source>Target</source>
        <translation>目標</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>變更前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>變更後</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Now</source>
        <translation>目前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan</source>
        <translation>計畫</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Why, and what to do instead</source>
        <translation>原因及替代做法</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+283"/>
        <source>Revert</source>
        <translation>還原</translation>
    </message>
    <message>
        <location line="-106"/>
        <source>Set back</source>
        <extracomment>The task making the plan (set by the panel that opened the window). Set once the window is closed: a plan that arrives then is discarded. Why, as a bulk change asks (optional; sent with status changes, journaled).</extracomment>
        <translation>還原</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 檔案 (*.csv)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Revert every change of bulk job %1 back to its value before.</source>
        <translation>將批次工作 %1 的每項變更還原為變更前的值。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Revert the changes of journal records %1 back to their value before.</source>
        <translation>將變更日誌記錄 %1 的變更還原為變更前的值。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The revert&apos;s plan</source>
        <translation>還原計畫</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reading and verifying the journal, then the targets…</source>
        <translation>正在讀取並驗證變更日誌，然後讀取目標…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Nothing has been sent. To set back: %1; skipped: %2.</source>
        <translation>尚未傳送任何內容。待還原：%1；略過：%2。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>none</source>
        <translation>無</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Export the plan…</source>
        <translation>匯出計畫(&amp;E)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Close</source>
        <translation>關閉</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Run the revert (%1)</source>
        <translation>執行還原（%1）(&amp;R)</translation>
    </message>
</context>
<context>
    <name>RevertWords</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_words.py" line="+33"/>
        <source>Status</source>
        <extracomment>The values a revert sets back, by the key its records use.</extracomment>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone</source>
        <translation>電話</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark</source>
        <translation>備註</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>語言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>時區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>國家/地區</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist entries</source>
        <translation>IP 白名單項目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist enabled</source>
        <translation>IP 白名單已啟用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel status</source>
        <translation>管道狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel name</source>
        <translation>管道名稱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Default channel</source>
        <translation>預設管道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel type status</source>
        <translation>管道類型狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel type name</source>
        <translation>管道類型名稱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel type description</source>
        <translation>管道類型描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Display order</source>
        <translation>顯示順序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Icon</source>
        <translation>圖示</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Changed since</source>
        <extracomment>A skipped line, in a few words (the plan&apos;s column).</extracomment>
        <translation>之後已被變更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Already back</source>
        <translation>已是原值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not allowed</source>
        <translation>不允許</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not reversible</source>
        <translation>無法還原</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No value before</source>
        <translation>無變更前的值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Was refused</source>
        <translation>已被拒絕</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Gone</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Another account&apos;s</source>
        <translation>屬於其他帳號</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your own status</source>
        <translation>您自己的狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not authenticated</source>
        <translation>未經驗證</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A password-reset mail cannot be taken back.</source>
        <extracomment>Why a kind of change cannot be set back, and what can be done instead.</extracomment>
        <translation>密碼重設郵件無法收回。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tell the person to ignore the mail; its link expires.</source>
        <translation>請告知對方忽略該郵件；其連結會過期。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A password is never recorded, so it cannot be set back.</source>
        <translation>密碼從不被記錄，因此無法還原。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set a new password.</source>
        <translation>請設定新密碼。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A settings check changed nothing.</source>
        <translation>設定檢查未變更任何內容。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing to do.</source>
        <translation>無需任何操作。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>New backup codes replaced the earlier ones.</source>
        <translation>新的備用代碼已取代先前的代碼。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the new codes, or generate another set.</source>
        <translation>請保留新代碼，或再產生一組。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A revoked authenticator cannot be restored.</source>
        <translation>已撤銷的驗證器無法恢復。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enrol the authenticator again.</source>
        <translation>請重新註冊驗證器。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A deleted role cannot be restored.</source>
        <translation>已刪除的角色無法還原。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create the role again with its permissions and members.</source>
        <translation>請重新建立該角色及其權限和成員。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This program cannot remove a portal.</source>
        <translation>本程式無法移除入口網站。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the server&apos;s operator to remove it.</source>
        <translation>請聯絡伺服器維運人員移除。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A sent invitation cannot be unsent.</source>
        <translation>已傳送的邀請無法收回。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel it in the Invitations panel.</source>
        <translation>請在「邀請」面板中取消它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A cancelled invitation cannot be reopened.</source>
        <translation>已取消的邀請無法重新開啟。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite the person again.</source>
        <translation>請重新邀請此人。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+4"/>
        <source>A revert does not delete what was created.</source>
        <translation>還原不會刪除已建立的內容。</translation>
    </message>
    <message>
        <location line="-3"/>
        <location line="+4"/>
        <source>Delete it in the Notifications panel.</source>
        <translation>請在通知面板中刪除它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+4"/>
        <source>What was deleted cannot be restored.</source>
        <translation>已刪除的內容無法還原。</translation>
    </message>
    <message>
        <location line="-3"/>
        <location line="+4"/>
        <source>Create it again.</source>
        <translation>請重新建立。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>a cut-off record</source>
        <extracomment>Why the journal does not verify (``journal.Problem.reason``).</extracomment>
        <translation>一筆被截斷的記錄</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a line that is not a record</source>
        <translation>一行不是記錄的內容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a record edited after it was written</source>
        <translation>一筆寫入後被修改的記錄</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a record removed or moved</source>
        <translation>一筆被刪除或移動的記錄</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>records out of order</source>
        <translation>記錄順序錯亂</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Set back from %1 to %2.</source>
        <extracomment>What a line&apos;s value is a value of, for its label: (field, kind of row) by the line&apos;s key.</extracomment>
        <translation>從 %1 還原為 %2。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Changed since the record: before %1, after %2, now %3. Check who changed it; set it by hand if it should still go back.</source>
        <translation>記錄之後已被變更：變更前 %1，變更後 %2，目前 %3。請查明是誰變更的；如仍需還原，請手動設定。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Already back: the value now is the value before (%1).</source>
        <translation>已是原值：目前值即變更前的值（%1）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 cannot become %2 directly (from %1: %3). Change it to one of those first.</source>
        <translation>%1 無法直接變為 %2（從 %1 可變為：%3）。請先將其改為其中之一。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This change cannot be set back.</source>
        <translation>此變更無法還原。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The record has no usable value before the change. Set it by hand (after: %1).</source>
        <translation>該記錄沒有可用的變更前的值。請手動設定（變更後：%1）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The change was refused: nothing to set back.</source>
        <translation>該變更已被拒絕：無需還原。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It no longer exists.</source>
        <translation>它已不存在。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Another account&apos;s IP whitelist: sign in as that account to revert it.</source>
        <translation>這是其他帳號的 IP 白名單：請以該帳號登入後再還原。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The signed-in account&apos;s own status: sign in as another administrator.</source>
        <translation>這是目前登入帳號本身的狀態：請以其他管理員身分登入。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The journal record is not authenticated: no checkpoint of this installation vouches for it, this program did not write it, and the job file does not confirm it. Anyone who can write the journal could have added it, so it is left alone.</source>
        <translation>這筆變更日誌記錄未經驗證：此安裝沒有任何檢查點為它擔保，它不是本程式寫入的，工作檔也無法確認它。任何能寫入變更日誌的人都可能加入它，因此不予處理。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>at line %1 (record %2): %3</source>
        <translation>在第 %1 行（記錄 %2）：%3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>it does not match its signed checkpoints (%1)</source>
        <translation>與其簽章檢查點不一致（%1）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Nothing was sent.</source>
        <translation>未傳送任何內容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This session is read-only: it cannot revert.</source>
        <translation>此工作階段為唯讀：無法還原。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The journal does not verify, so nothing in it is reverted: %1.</source>
        <translation>變更日誌未通過驗證，因此不會還原其中任何內容：%1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The journal has a break at line %1 (record %2: %3) after record %4: records may be missing there, so nothing is reverted across it.</source>
        <translation>變更日誌在記錄 %4 之後的第 %1 行（記錄 %2：%3）處有斷點：那裡可能缺少記錄，因此不會跨越該斷點進行還原。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Record %1 was made on %2 (profile %3), not on the server signed in to (%4): sign in there to revert it.</source>
        <translation>記錄 %1 是在 %2（設定檔 %3）上產生的，而不是在目前登入的伺服器（%4）上：請登入該伺服器後再還原。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The journal records no change of this job: nothing to revert.</source>
        <translation>變更日誌中沒有此工作的變更記錄：無需還原。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The journal has no such change: %1.</source>
        <translation>變更日誌中沒有此變更：%1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Select the records to revert.</source>
        <translation>請選擇要還原的記錄。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Records %1 are not authenticated: no checkpoint of this installation vouches for them, this program did not write them, and no job file here confirms them. Anyone who can write the journal could have added them, so they are not reverted here.</source>
        <translation>記錄 %1 未經驗證：此安裝沒有任何檢查點為它們擔保，它們不是本程式寫入的，這裡也沒有工作檔能確認它們。任何能寫入變更日誌的人都可能加入它們，因此不在這裡還原。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A revert of the same job or record is being planned or run in another window or program. Wait for it to end.</source>
        <translation>另一個視窗或程式正在規劃或執行同一工作或記錄的還原。請等它結束。</translation>
    </message>
</context>
<context>
    <name>ReviewQueue</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/queue_model.py" line="+27"/>
        <source>Item</source>
        <translation>項目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>類型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>狀態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal</source>
        <translation>入口網站</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution</source>
        <translation>機構</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Flags</source>
        <translation>標記</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Decision</source>
        <translation>決定</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Keep</source>
        <extracomment>The model&apos;s column of the decision (shown second: ``queue_columns``).</extracomment>
        <translation>保留</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoke</source>
        <translation>撤銷</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Don&apos;t know</source>
        <translation>不確定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Account</source>
        <translation>帳戶</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitation</source>
        <translation>邀請</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New</source>
        <translation>新增</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reactivated</source>
        <translation>已重新啟用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Administrator</source>
        <translation>管理員</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not updated</source>
        <translation>長期未更新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expired</source>
        <translation>已過期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Writes</source>
        <translation>可寫入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Own account</source>
        <translation>本人帳戶</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>%1 in the earlier snapshot %2, %3 now</source>
        <translation>先前的快照 %2 中為 %1，現為 %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 in the earlier campaign&apos;s scope %2, %3 now</source>
        <translation>先前審查活動的範圍 %2 中為 %1，現為 %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not updated for %1 days (since %2)</source>
        <translation>%1 天未更新（自 %2 起）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pending, expired on %1</source>
        <translation>待處理，已於 %1 過期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>holds write permissions: %1</source>
        <translation>擁有寫入權限：%1</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>a system-portal (administrator) account</source>
        <translation>系統入口網站（管理員）帳戶</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the reviewer&apos;s own account: another reviewer decides it</source>
        <translation>審閱人本人的帳戶：由另一位審閱人決定</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>not in the earlier snapshot %1</source>
        <extracomment>Rows fetched at once, and pages kept. The data role of a row&apos;s :class:`~portal_admin.reviews.Item`. The roles answered (a view asks for a dozen per cell: the others cost nothing). A flag&apos;s reason in the program&apos;s languages, by the engine&apos;s reason code (``reviews/flags.py``): its parameters fill %1, %2 ...</extracomment>
        <translation>不在先前的快照 %1 中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not in the earlier campaign&apos;s scope %1</source>
        <translation>不在先前審查活動的範圍 %1 中</translation>
    </message>
</context>
<context>
    <name>RoleColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_model.py" line="+26"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Type</source>
        <translation>類型</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Members</source>
        <translation>成員數</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Permissions</source>
        <translation>權限數</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Description</source>
        <translation>說明</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Updated</source>
        <translation>更新時間</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>RolesPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+286"/>
        <source>%n role(s)</source>
        <translation>%n 個角色</translation>
    </message>
    <message>
        <location line="-117"/>
        <source>&amp;Permission codes:</source>
        <translation>權限代碼(&amp;P)：</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>Choose a role to see its permissions.</source>
        <translation>選擇角色以檢視其權限。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+134"/>
        <source>Choose a role.</source>
        <extracomment>The role the detail shows (None: nothing chosen). &quot;loading&quot;, &quot;ready&quot;, &quot;empty&quot; or &quot;error&quot;. The panel: it keeps the tasks and knows what the signed-in account may do.</extracomment>
        <translation>請選擇角色。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+3"/>
        <source>Copy id</source>
        <translation>複製 ID</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the role id</source>
        <translation>複製角色 ID</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+57"/>
        <source>Could not delete the role %1</source>
        <translation>無法刪除角色 %1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+7"/>
        <source>Created:</source>
        <translation>建立時間：</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="-28"/>
        <location line="+2"/>
        <source>Delete role</source>
        <translation>刪除角色</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+8"/>
        <source>Delete role…</source>
        <translation>刪除角色…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete the role</source>
        <translation>刪除角色</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="-11"/>
        <source>Delete the role %1? This cannot be undone.</source>
        <translation>要刪除角色 %1 嗎？此操作無法復原。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="-12"/>
        <source>Description:</source>
        <translation>說明：</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Id:</source>
        <translation>ID：</translation>
    </message>
    <message>
        <location line="+122"/>
        <source>Loading…</source>
        <extracomment>Shown, the controller starts loading (``controller.start()``).</extracomment>
        <translation>正在載入…</translation>
    </message>
    <message>
        <location line="-113"/>
        <source>Members:</source>
        <translation>成員：</translation>
    </message>
    <message>
        <location line="+146"/>
        <source>Number of roles</source>
        <translation>角色數量</translation>
    </message>
    <message>
        <location line="-138"/>
        <source>Permission codes</source>
        <translation>權限代碼</translation>
    </message>
    <message>
        <location line="+130"/>
        <source>Refresh</source>
        <translation>重新整理</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Refresh the roles</source>
        <translation>重新整理角色</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Reload the roles (F5)</source>
        <translation>重新載入角色（F5）</translation>
    </message>
    <message>
        <location line="-124"/>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Role details</source>
        <translation>角色詳細資料</translation>
    </message>
    <message>
        <location line="-21"/>
        <source>Role id</source>
        <translation>角色 ID</translation>
    </message>
    <message>
        <location line="+149"/>
        <location line="+2"/>
        <source>Roles</source>
        <translation>角色</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="-18"/>
        <source>The OWNER role is protected: it can never be deleted.</source>
        <translation>OWNER 角色受保護，永遠無法刪除。</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>The role %1 was deleted.</source>
        <translation>角色 %1 已刪除。</translation>
    </message>
    <message>
        <location line="-59"/>
        <source>The role is in use by %n member(s): give them another role before deleting it.</source>
        <translation>此角色正由 %n 位成員使用：請先為他們指派其他角色，再刪除此角色。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="-27"/>
        <source>The roles could not be loaded.</source>
        <translation>無法載入角色。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+17"/>
        <source>The server refuses if members still hold the role.</source>
        <translation>如果仍有成員擁有此角色，伺服器會拒絕刪除。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="-4"/>
        <source>The workspace has no roles.</source>
        <translation>此工作區沒有角色。</translation>
    </message>
    <message>
        <location line="-118"/>
        <source>Type:</source>
        <translation>類型：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Updated:</source>
        <translation>更新時間：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Why the role cannot be deleted</source>
        <translation>無法刪除角色的原因</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="-144"/>
        <source>“%1”</source>
        <translation>「%1」</translation>
    </message>
</context>
<context>
    <name>SavedViews</name>
    <message>
        <location filename="../src/portal_admin/ui/lists/saved_views.py" line="+139"/>
        <source>The view “%1” no longer exists.</source>
        <extracomment>How long the list must stay unchanged before its state is written. The view shown or the list of views changed (the button&apos;s text follows). Something went wrong that the person should read (a translated sentence).</extracomment>
        <translation>檢視「%1」已不存在。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The view could not be saved: the settings file is not writable.</source>
        <translation>無法儲存檢視：設定檔無法寫入。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The view could not be deleted: the settings file is not writable.</source>
        <translation>無法刪除檢視：設定檔無法寫入。</translation>
    </message>
    <message>
        <location line="+28"/>
        <location line="+41"/>
        <source>Default view</source>
        <translation>預設檢視</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Save view as…</source>
        <translation>檢視另存為…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Save changes to “%1”</source>
        <translation>將變更儲存到「%1」</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Delete view “%1”</source>
        <translation>刪除檢視「%1」</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reset to default</source>
        <translation>還原為預設</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No filters, the first sort and columns, widths fitted</source>
        <translation>無篩選條件，初始排序和欄，欄寬配合內容</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>View: %1</source>
        <translation>檢視：%1</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>This list already has 50 saved views; delete one first.</source>
        <translation>此清單已有 50 個已儲存的檢視；請先刪除一個。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A view name can have at most 60 characters.</source>
        <translation>檢視名稱最多 60 個字元。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The view needs a name.</source>
        <translation>檢視需要一個名稱。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/lists/saved_view_dialog.py" line="+25"/>
        <source>Save view</source>
        <translation>儲存檢視</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>View name</source>
        <translation>檢視名稱</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Name:</source>
        <translation>名稱(&amp;N)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The filters, sort and columns of this list are kept on this computer.</source>
        <translation>此清單的篩選條件、排序和欄儲存在這台電腦上。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>A view of this name exists: saving replaces it.</source>
        <translation>已有同名檢視：儲存將取代它。</translation>
    </message>
</context>
<context>
    <name>SecretField</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/secrets.py" line="+66"/>
        <source>Unchanged (type to replace)</source>
        <translation>未變更（輸入新值以取代）</translation>
    </message>
</context>
<context>
    <name>SecurityPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/common.py" line="+38"/>
        <source>Sign in to see this panel.</source>
        <translation>登入後即可檢視此面板。</translation>
    </message>
</context>
<context>
    <name>SecurityText</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/formatting.py" line="+16"/>
        <source>Successful</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocked</source>
        <translation>已封鎖</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>%1 days ago</source>
        <translation>%1 天前</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>%1 h ago</source>
        <translation>%1 小時前</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>%1 min ago</source>
        <translation>%1 分鐘前</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 months ago</source>
        <translation>%1 個月前</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>No</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="-68"/>
        <source>in the future</source>
        <translation>未來時間</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>just now</source>
        <translation>剛剛</translation>
    </message>
</context>
<context>
    <name>SessionsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/sessions.py" line="+45"/>
        <source>Device</source>
        <translation>裝置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Client IP</source>
        <translation>用戶端 IP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User agent</source>
        <translation>使用者代理程式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed in</source>
        <translation>登入時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last activity</source>
        <translation>最近活動</translation>
    </message>
    <message>
        <location line="+201"/>
        <source>&amp;Active sessions</source>
        <translation>使用中的工作階段(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Active sessions</source>
        <translation>使用中的工作階段</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Last sign-in IP:</source>
        <translation>最近登入 IP：</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Last sign-in:</source>
        <translation>最近登入：</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Maximum sessions:</source>
        <translation>工作階段數上限：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Password changed:</source>
        <translation>密碼變更時間：</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Refresh</source>
        <translation>重新整理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Refresh the sessions</source>
        <translation>重新整理工作階段</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+2"/>
        <source>Session settings</source>
        <translation>工作階段設定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Single sign-on:</source>
        <translation>單一登入：</translation>
    </message>
    <message>
        <location line="-148"/>
        <source>This device</source>
        <translation>本裝置</translation>
    </message>
</context>
<context>
    <name>SignInChart</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/chart.py" line="+56"/>
        <source>%1 successful and %2 failed sign-ins from %3 to %4</source>
        <translation>%3 至 %4 期間，登入成功 %1 次，失敗 %2 次</translation>
    </message>
    <message>
        <location line="+145"/>
        <source>%1: %2 successful, %3 failed</source>
        <translation>%1：成功 %2 次，失敗 %3 次</translation>
    </message>
    <message>
        <location line="-30"/>
        <location filename="../src/portal_admin/ui/panels/security/chart_table.py" line="+30"/>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="-106"/>
        <location line="+38"/>
        <source>No sign-ins to show.</source>
        <translation>沒有可顯示的登入記錄。</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>Sign-ins per day</source>
        <translation>每日登入次數</translation>
    </message>
    <message>
        <location line="+99"/>
        <location filename="../src/portal_admin/ui/panels/security/chart_table.py" line="-1"/>
        <source>Successful</source>
        <translation>成功</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/chart_table.py" line="-1"/>
        <source>Day</source>
        <translation>日期</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Total</source>
        <translation>合計</translation>
    </message>
</context>
<context>
    <name>SignInErrors</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/controller.py" line="+20"/>
        <source>The email address or the password is wrong.</source>
        <extracomment>Clearer summaries for the error codes the sign-in forms meet.</extracomment>
        <translation>電子郵件地址或密碼錯誤。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The code is wrong or has expired. Check it and try again.</source>
        <translation>驗證碼錯誤或已過期，請確認後再試一次。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A code was sent a moment ago. Wait until the countdown ends.</source>
        <translation>驗證碼剛剛已寄出，請等候倒數結束。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The sign-in session has expired. Sign in again.</source>
        <translation>登入工作階段已過期，請重新登入。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The reset token is wrong, has expired or was already used.</source>
        <translation>重設權杖錯誤、已過期或已使用過。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The current password is wrong.</source>
        <translation>目前的密碼錯誤。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Too many attempts. Wait a while, then try again.</source>
        <translation>嘗試次數過多，請稍後再試。</translation>
    </message>
</context>
<context>
    <name>SignInFlow</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/flow.py" line="+219"/>
        <source>You can send another code in %1 seconds.</source>
        <extracomment>list[MfaMethod] offered by the server for the current login session. Seconds until another email code may be sent (0: now). Seconds left in the login session (0 when none runs). Signed in: the account&apos;s email. The selected connection profile changed. An email address the pages should show (after setup or a change of page).</extracomment>
        <translation>%1 秒後可再次傳送驗證碼。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>A code was sent to %1. It is valid for %2 minutes.</source>
        <translation>驗證碼已寄至 %1，%2 分鐘內有效。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A code was sent to %1.</source>
        <translation>驗證碼已寄至 %1。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>The sign-in session expired before the code was entered. Sign in again.</source>
        <translation>輸入驗證碼前登入工作階段已過期，請重新登入。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Enter the challenge token.</source>
        <translation>請輸入挑戰權杖。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>If an account exists for %1, an email with a reset token is on its way. Check your mail.</source>
        <translation>如果 %1 的帳號存在，含有重設權杖的郵件即將寄達，請查看您的信箱。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Enter the reset token from the email.</source>
        <translation>請輸入郵件中的重設權杖。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Your password was changed. Sign in with the new password.</source>
        <translation>密碼已變更，請使用新密碼登入。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Enter the setup session id from the email.</source>
        <translation>請輸入郵件中的設定工作階段 ID。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Your password is set. Sign in with it now.</source>
        <translation>密碼已設定，現在即可用它登入。</translation>
    </message>
</context>
<context>
    <name>SignInForms</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/forms.py" line="+83"/>
        <source>Information</source>
        <translation>提示</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Working</source>
        <translation>處理中</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Please wait</source>
        <translation>請稍候</translation>
    </message>
</context>
<context>
    <name>SignInPages</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/pages.py" line="+304"/>
        <source>Sign in to unlock</source>
        <extracomment>&quot;Edit…&quot; (the chosen profile) or &quot;New…&quot; (None) was clicked. The demo box&apos;s &quot;Fill in the administrator&quot; was clicked. Edit the chosen profile (a built-in or managed one opens read-only, to test it). True in the idle lock&apos;s sign-in window (see :meth:`set_unlocking`).</extracomment>
        <translation>登入以解除鎖定</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The window was locked. Sign in again with your password and a second factor to continue where you left off.</source>
        <translation>視窗已鎖定。請使用密碼及第二步驗證重新登入，即可從中斷處繼續。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Sign in to the System Portal</source>
        <translation>登入 System Portal</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Choose the server, then enter your email address and password.</source>
        <translation>請選擇伺服器，然後輸入電子郵件地址和密碼。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Connection:</source>
        <translation>連線(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+336"/>
        <source>&amp;Email:</source>
        <translation>電子郵件(&amp;E)：</translation>
    </message>
    <message>
        <location line="-335"/>
        <source>&amp;Password:</source>
        <translation>密碼(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>name@example.com</source>
        <translation>name@example.com</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+26"/>
        <source>Sign in</source>
        <translation>登入</translation>
    </message>
    <message>
        <location line="-24"/>
        <location line="+26"/>
        <location line="+297"/>
        <source>Forgot your password?</source>
        <translation>忘記密碼？</translation>
    </message>
    <message>
        <location line="-321"/>
        <source>I have a reset token</source>
        <translation>我有重設權杖</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+29"/>
        <source>First-time password setup</source>
        <translation>首次設定密碼</translation>
    </message>
    <message>
        <location line="-223"/>
        <source>Demo accounts (built-in sandbox)</source>
        <extracomment>Wrapped hints below the form (a QFormLayout sizes wrapped labels badly). The window&apos;s notice, error panel and busy bar are moved here when the page shows. &quot;Fill in the administrator&quot; was clicked.</extracomment>
        <translation>示範帳號（內建沙箱）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>administrator</source>
        <translation>管理員</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>read-only auditor</source>
        <translation>唯讀稽核員</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>awaits approval</source>
        <translation>待核准</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(none yet)</source>
        <translation>（尚無）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>first-time setup</source>
        <translation>首次設定</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Codes, reset tokens and setup ids arrive in the demo mailbox.</source>
        <translation>驗證碼、重設權杖和設定 ID 都會寄到示範信箱。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Fill in the administrator</source>
        <translation>填入管理員帳號</translation>
    </message>
    <message>
        <location line="+158"/>
        <source>Connection profile</source>
        <translation>連線設定檔</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Environment of the selected profile</source>
        <translation>所選設定檔的環境</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+318"/>
        <source>Email address</source>
        <translation>電子郵件地址</translation>
    </message>
    <message>
        <location line="-317"/>
        <source>Password</source>
        <translation>密碼</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enter a password reset token</source>
        <translation>輸入密碼重設權杖</translation>
    </message>
    <message>
        <location line="-180"/>
        <source>Demo accounts</source>
        <translation>示範帳號</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fill in the demo administrator&apos;s email and password</source>
        <translation>填入示範管理員的電子郵件和密碼</translation>
    </message>
    <message>
        <location line="+155"/>
        <source>E&amp;dit…</source>
        <translation>編輯(&amp;D)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit or test the connection profile</source>
        <translation>編輯或測試連線設定檔</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ne&amp;w…</source>
        <translation>新增(&amp;W)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New connection profile</source>
        <translation>新增連線設定檔</translation>
    </message>
    <message>
        <location line="+131"/>
        <source>Send a code to %1, then type it below.</source>
        <translation>請先傳送驗證碼至 %1，再於下方輸入。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open your authenticator app and type the code it shows for this account.</source>
        <translation>請開啟驗證器應用程式，輸入其中顯示的此帳號驗證碼。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Send code</source>
        <translation>傳送驗證碼</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+10"/>
        <source>Resend code</source>
        <translation>重新傳送驗證碼</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>You can ask for a new code in %1 seconds.</source>
        <translation>%1 秒後可重新索取驗證碼。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No code arrived? You can send a new one now.</source>
        <translation>沒有收到驗證碼？現在可以重新傳送。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Resend countdown</source>
        <translation>重新傳送倒數</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Time left to finish signing in: %1</source>
        <translation>剩餘登入時間：%1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Time left to finish signing in</source>
        <translation>剩餘登入時間</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Confirm it is you</source>
        <translation>驗證您的身分</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The password for %1 is right. Now confirm with a second factor.</source>
        <translation>%1 的密碼正確。請完成第二步驗證。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Method:</source>
        <translation>方式：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Code by email</source>
        <translation>電子郵件驗證碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code from an authenticator app</source>
        <translation>驗證器應用程式驗證碼</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Code:</source>
        <translation>驗證碼(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>6 digits</source>
        <translation>6 位數字</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+110"/>
        <location line="+75"/>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <location line="-184"/>
        <source>Verify and sign in</source>
        <translation>驗證並登入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fill in the demo code</source>
        <translation>填入示範驗證碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Second factor methods</source>
        <translation>第二步驗證方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verification code</source>
        <translation>驗證碼</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Back to email and password</source>
        <translation>返回電子郵件和密碼</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verify the code and sign in</source>
        <translation>驗證驗證碼並登入</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fill in the sandbox&apos;s current authenticator code</source>
        <translation>填入沙箱目前的驗證器驗證碼</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Your account is waiting for approval</source>
        <translation>您的帳號正在等候核准</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The email, password and code for %1 were right, but an administrator has not yet approved this account.</source>
        <translation>%1 的電子郵件、密碼和驗證碼皆正確，但管理員尚未核准此帳號。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>You cannot use the program until the account is approved. Ask your administrator to approve it, then sign in again. Nothing was changed.</source>
        <translation>帳號核准前無法使用本程式。請聯絡管理員核准，然後重新登入。未進行任何變更。</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+3"/>
        <location line="+48"/>
        <location line="+29"/>
        <location line="+4"/>
        <location line="+41"/>
        <source>Back to sign-in</source>
        <translation>返回登入</translation>
    </message>
    <message>
        <location line="-124"/>
        <source>Why you cannot enter</source>
        <translation>無法進入的原因</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What to do</source>
        <translation>處理方式</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Enter your email address. If an account exists for it, the server emails a reset token you can use to choose a new password.</source>
        <translation>請輸入電子郵件地址。如果此地址的帳號存在，伺服器會寄出含有重設權杖的郵件，您可以用它設定新密碼。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>C&amp;hallenge token:</source>
        <translation>挑戰權杖(&amp;H)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The bot-challenge token your organisation gives you for password recovery.</source>
        <translation>貴單位為密碼復原提供的機器人驗證權杖。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Send reset email</source>
        <translation>寄送重設郵件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Challenge token</source>
        <translation>挑戰權杖</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Send the password reset email</source>
        <translation>寄送密碼重設郵件</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Check your mail</source>
        <translation>請查看您的信箱</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open the email, copy the reset token it contains, then choose “Enter the reset token”. The token works once and expires.</source>
        <translation>開啟郵件，複製其中的重設權杖，然後選擇「輸入重設權杖」。權杖只能使用一次，且會過期。</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+5"/>
        <source>Enter the reset token</source>
        <translation>輸入重設權杖</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&amp;New password:</source>
        <translation>新密碼(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Repeat it:</source>
        <translation>確認新密碼(&amp;R)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New password</source>
        <translation>新密碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repeat the new password</source>
        <translation>再次輸入新密碼</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Choose a new password</source>
        <translation>設定新密碼</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Paste the reset token from the email and choose a new password.</source>
        <translation>請貼上郵件中的重設權杖，並設定新密碼。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reset &amp;token:</source>
        <translation>重設權杖(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set new password</source>
        <translation>設定新密碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset token</source>
        <translation>重設權杖</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the new password</source>
        <translation>設定新密碼</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Set up your password</source>
        <translation>設定您的密碼</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your account was created for you. Paste the setup id from the welcome email and choose your password.</source>
        <translation>您的帳號已建立。請貼上歡迎郵件中的設定 ID，並設定您的密碼。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Setup &amp;id:</source>
        <translation>設定 ID(&amp;I)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set password</source>
        <translation>設定密碼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Setup session id</source>
        <translation>設定工作階段 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the password</source>
        <translation>設定密碼</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Signed in</source>
        <translation>已登入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Opening the program…</source>
        <translation>正在開啟程式…</translation>
    </message>
</context>
<context>
    <name>SignInValidation</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/validation.py" line="+20"/>
        <source>Enter your email address.</source>
        <translation>請輸入電子郵件地址。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The email address is not valid: it needs a name, an @ and a domain.</source>
        <translation>電子郵件地址無效：需包含名稱、@ 和網域。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Enter your password.</source>
        <translation>請輸入密碼。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enter the verification code.</source>
        <translation>請輸入驗證碼。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Enter a new password.</source>
        <translation>請輸入新密碼。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The new password must have at least %1 characters.</source>
        <translation>新密碼至少需要 %1 個字元。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Type the new password a second time to confirm it.</source>
        <translation>請再次輸入新密碼以確認。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The two new passwords do not match.</source>
        <translation>兩次輸入的新密碼不一致。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>At least %1 characters.</source>
        <translation>至少 %1 個字元。</translation>
    </message>
</context>
<context>
    <name>SignInWindow</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/window.py" line="+465"/>
        <source>The built-in sandbox accepts the token already filled in.</source>
        <extracomment>The page class of each step (the credentials page is built with the window). The challenge token the sandbox accepts on forgot-password (see docs/sandbox.md). The person asked to edit a profile (or to make one: None); the program opens the editor. The person asked to review a campaign file without signing in (docs/reviews.md). The person closed the window (without signing in, or after). The window was painted for the first time (it is on screen). Set by :meth:`pin_email`: only that account may sign in here.</extracomment>
        <translation>內建沙箱接受已預先填入的權杖。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Unlock — Portal Admin</source>
        <translation>解除鎖定 — Portal Admin</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign in — Portal Admin</source>
        <translation>登入 — Portal Admin</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Demo mailbox…</source>
        <translation>示範信箱…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open the demo mailbox</source>
        <translation>開啟示範信箱</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Re&amp;view a campaign file…</source>
        <translation>審閱審查活動檔案(&amp;V)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Review a campaign file</source>
        <translation>審閱審查活動檔案</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Decide an access-review campaign from its file alone, without signing in</source>
        <translation>無需登入，僅憑檔案對存取審查活動作出決定</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sign-in steps</source>
        <translation>登入步驟</translation>
    </message>
</context>
<context>
    <name>SnapshotDiff</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/diff_view.py" line="+28"/>
        <source>What</source>
        <translation>類別</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>變更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name or e-mail</source>
        <translation>名稱或電子郵件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Field</source>
        <translation>欄位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>變更前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>變更後</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Accounts</source>
        <extracomment>The kinds of change, as the diff names them, and their words.</extracomment>
        <translation>帳戶</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitations</source>
        <translation>邀請</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist</source>
        <translation>IP 白名單</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MFA</source>
        <translation>MFA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channels</source>
        <translation>管道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel types</source>
        <translation>管道類型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>changed</source>
        <translation>變更</translation>
    </message>
    <message>
        <location line="+123"/>
        <source>The first %1 of %2 changes are shown; exports hold all of them.</source>
        <extracomment>Rows shown at most; the export writes every change. &quot;csv&quot; or &quot;pack&quot;: the person asked to export what is shown. The server&apos;s labels each snapshot keeps (old, new).</extracomment>
        <translation>顯示 %2 項變更中的前 %1 項；匯出包含全部變更。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 of %2 changes shown.</source>
        <translation>顯示 %1 / %2 項變更。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>All kinds</source>
        <translation>所有類別</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Kind of change</source>
        <translation>變更類別</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter by id, name or value</source>
        <translation>依 ID、名稱或值篩選</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change filter</source>
        <translation>變更篩選</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export CSV…</source>
        <translation>匯出 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence pack…</source>
        <translation>證據套件…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Changes between the snapshots</source>
        <translation>兩份快照之間的變更</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Choose two snapshots and compare them, or take a new one.</source>
        <translation>請選擇兩份快照進行比較，或擷取一份新快照。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Changes from the snapshot of %1 to the snapshot of %2</source>
        <translation>從 %1 的快照到 %2 的快照的變更</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No change: the two snapshots hold the same access.</source>
        <translation>無變更：兩份快照的存取權限相同。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 %2: %3</source>
        <translation>%1%2：%3</translation>
    </message>
</context>
<context>
    <name>SnapshotsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/snapshots_panel.py" line="+57"/>
        <source>Taken</source>
        <translation>擷取時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server</source>
        <translation>伺服器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>帳戶</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accounts</source>
        <translation>帳戶數</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitations</source>
        <translation>邀請</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File</source>
        <translation>檔案</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Reading accounts: %1 of %2</source>
        <translation>正在讀取帳戶：%1 / %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading roles</source>
        <translation>正在讀取角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading invitations</source>
        <translation>正在讀取邀請</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading the security settings</source>
        <translation>正在讀取安全性設定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading notification channels</source>
        <translation>正在讀取通知管道</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The file %1 does not exist.</source>
        <translation>檔案 %1 不存在。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not a snapshot of this program, or it is damaged.</source>
        <translation>%1 不是本程式的快照，或已損毀。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is an incomplete snapshot: it was interrupted before it was finished.</source>
        <translation>%1 是不完整的快照：它在完成前被中斷。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 was made by a newer version of the program.</source>
        <translation>%1 由較新版本的程式建立。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 holds SQL that no snapshot of this program has (a trigger, a view or another object): it was refused unread.</source>
        <translation>%1 含有本程式的快照從不包含的 SQL（觸發器、檢視或其他物件）：已拒絕，未讀取。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 does not have the tables of a snapshot of this program: refused.</source>
        <translation>%1 不具有本程式快照的資料表結構：已拒絕。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is damaged: its integrity check failed, so it was not used.</source>
        <translation>%1 已損毀：完整性檢查未通過，因此未使用。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 could not be read in time, so it was not used.</source>
        <translation>%1 未能在時限內讀取，因此未使用。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 was changed since it was opened: open it again.</source>
        <translation>%1 在開啟後已被變更：請重新開啟。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>This file cannot be used as a snapshot.</source>
        <translation>此檔案無法作為快照使用。</translation>
    </message>
    <message>
        <location line="+224"/>
        <source>Select two snapshots.</source>
        <extracomment>Reads this installation&apos;s fingerprint, or None (called in a worker thread; makes no key). By default ``trust.own_fingerprint`` of the key store. The last pack check shown, and the list of trusted keys (while open). Snapshot files opened from elsewhere (listed until the program ends).</extracomment>
        <translation>請選擇兩個快照。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An access-review campaign of the selected snapshot</source>
        <translation>以所選快照建立存取審查活動</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+7"/>
        <source>Select one snapshot.</source>
        <translation>請選擇一個快照。</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>A signed zip of the selected snapshot: CSV and a report</source>
        <translation>所選快照的簽署 zip：CSV 與報告</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>The snapshot was cancelled; nothing was kept.</source>
        <translation>快照已取消，未保留任何內容。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The snapshot could not be finished; nothing was kept.</source>
        <translation>快照未能完成，未保留任何內容。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Snapshot taken: %1 accounts, %2 roles, %3 invitations.</source>
        <translation>快照已擷取：%1 個帳戶、%2 個角色、%3 個邀請。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Starting the snapshot…</source>
        <translation>正在開始快照…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Snapshot taken. There was no earlier snapshot of this server: this one is the baseline of the next comparison.</source>
        <translation>快照已擷取。此伺服器沒有更早的快照：這份快照將作為下次比較的基準。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Snapshot taken and compared with the one of %1: %2 changes.</source>
        <translation>快照已擷取，並已與 %1 的快照比較：%2 項變更。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Snapshots (*.sqlite);;All files (*)</source>
        <translation>快照 (*.sqlite);;所有檔案 (*)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Evidence packs (*.zip);;All files (*)</source>
        <translation>證據套件 (*.zip);;所有檔案 (*)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The list of trusted keys cannot be read: only this installation&apos;s key is trusted for now.</source>
        <translation>無法讀取受信任金鑰清單：目前只信任此安裝的金鑰。</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>%1 changes written to %2.</source>
        <translation>已將 %1 項變更寫入 %2。</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>Take snapshot</source>
        <translation>擷取快照</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Snapshot and compare with the last</source>
        <translation>擷取快照並與上次比較</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Take a snapshot now and show what changed since the last one of this server</source>
        <translation>立即擷取快照，並顯示自此伺服器上次快照以來的變更</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refresh</source>
        <translation>重新整理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>List the snapshots again (F5)</source>
        <translation>重新列出快照（F5）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Compare the two selected</source>
        <translation>比較所選的兩份</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open a snapshot file…</source>
        <translation>開啟快照檔案…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Evidence pack…</source>
        <translation>證據套件…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Review campaign…</source>
        <translation>審查活動…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Verify a pack…</source>
        <translation>驗證證據套件…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check an evidence pack&apos;s signature and every file in it</source>
        <translation>檢查證據套件的簽章及其中的每個檔案</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Trusted keys…</source>
        <translation>受信任的金鑰…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The signing keys whose packs this computer accepts as verified</source>
        <translation>這部電腦將其簽署的證據套件視為已驗證的簽署金鑰</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+4"/>
        <source>Snapshots</source>
        <translation>快照</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Snapshot progress</source>
        <translation>快照進度</translation>
    </message>
</context>
<context>
    <name>Tour</name>
    <message>
        <location filename="../src/portal_admin/ui/tour/runner.py" line="+331"/>
        <source>Suspended accounts</source>
        <extracomment>An account id the sandbox does not know: its 404 is the tour&apos;s real error. The sandbox&apos;s demo auditor (read permissions only), who signs in for the kiosk tour. Set to a folder, the tour pauses at each stop for an outside checker (the AT-SPI walk of ``tests/accessibility``): it writes ``stop-N.json`` (``{&quot;n&quot;: N, &quot;name&quot;: ...}``) there, keeps the event loop turning (so the checker&apos;s questions are answered) until ``done-N`` appears, and writes ``end.json`` (``{&quot;stops&quot;: N, &quot;problems&quot;: [...]}``) when the tour is over. How long one stop waits for the checker before the tour goes on (noted as a problem). The folder of the stop-by-stop handshake (see :data:`PAUSE_ENV`); None: no pauses. The window sizes the workspace is pictured at.</extracomment>
        <translation>已停權的帳號</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/tour/dialogs.py" line="+56"/>
        <source>Suspended</source>
        <translation>已停權</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Suspend the account</source>
        <translation>停權帳號</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend the account ann@example.com.</source>
        <translation>停權帳號 ann@example.com。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend</source>
        <translation>停權</translation>
    </message>
</context>
<context>
    <name>TrustedKeys</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/trust_dialog.py" line="+48"/>
        <location line="+183"/>
        <source>Name</source>
        <translation>名稱</translation>
    </message>
    <message>
        <location line="-182"/>
        <location line="+181"/>
        <source>Fingerprint</source>
        <translation>指紋</translation>
    </message>
    <message>
        <location line="-180"/>
        <source>Added</source>
        <translation>新增時間</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>This is not a key fingerprint. A fingerprint is 64 hexadecimal digits (0–9, a–f), as the signer&apos;s About window shows it; spaces do not matter.</source>
        <extracomment>The table&apos;s role holding a row&apos;s fingerprint (the own key&apos;s row holds none).</extracomment>
        <translation>這不是金鑰指紋。指紋是 64 位十六進位數字（0–9、a–f），與簽署者的「關於」視窗中顯示的一致；空格無關緊要。</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Give the key a name: whose key it is.</source>
        <extracomment>The key added (a ``TrustedKey``), just before the dialog closes.</extracomment>
        <translation>請為金鑰命名：說明它屬於誰。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This name reads as this installation&apos;s own key. Name whose key it is.</source>
        <translation>這個名稱看起來像此安裝自己的金鑰。請寫明這是誰的金鑰。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This is this installation&apos;s own key: its packs are trusted already.</source>
        <translation>這是此安裝自己的金鑰：其證據套件已受信任。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This key is trusted already, as “%1”.</source>
        <translation>此金鑰已受信任，名稱為「%1」。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The key was not added: %1</source>
        <translation>未新增金鑰：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The list of trusted keys could not be saved: %1</source>
        <translation>無法儲存受信任金鑰清單：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Trust a signing key</source>
        <translation>信任簽署金鑰</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Trust a key only after comparing its fingerprint with the one its owner reads to you from their program&apos;s Help &gt; About, by another channel: in person or by telephone. Packs it signs will then be shown as verified.</source>
        <translation>請先透過其他管道（當面或電話）將金鑰指紋與其擁有者從其程式「說明 &gt; 關於」中唸給您的指紋進行比對，然後再信任該金鑰。此後，由它簽署的證據套件將顯示為已驗證。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Fingerprint:</source>
        <translation>指紋(&amp;F)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation>名稱(&amp;N)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Whose key it is, e.g. “Audit team, Lyon”</source>
        <translation>金鑰屬於誰，例如「里昂稽核小組」</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Why the key was not added</source>
        <translation>未新增金鑰的原因</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Trust this key</source>
        <translation>信任此金鑰</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>This installation</source>
        <extracomment>The list changed (a key added or removed): a check shown elsewhere may be redone. Why the list cannot be read or changed (&quot;&quot; when it can).</extracomment>
        <translation>此安裝</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The list of trusted keys cannot be read: %1</source>
        <translation>無法讀取受信任金鑰清單：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This installation&apos;s own key is not listed: it has not made one yet, or this computer&apos;s keyring cannot be read.</source>
        <translation>未列出此安裝自己的金鑰：它尚未產生金鑰，或無法讀取這部電腦的金鑰圈。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No other key is trusted yet.</source>
        <translation>尚未信任其他金鑰。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>This installation&apos;s own key is always trusted.</source>
        <translation>此安裝自己的金鑰一律受信任。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Remove a trusted key</source>
        <translation>移除受信任的金鑰</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop trusting the key “%1”?</source>
        <translation>要停止信任金鑰「%1」嗎？</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Fingerprint %1. Packs it signed will be shown as signed by a key you do not trust.</source>
        <translation>指紋 %1。由它簽署的證據套件將顯示為由您不信任的金鑰簽署。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+35"/>
        <location line="+10"/>
        <source>Trusted keys</source>
        <translation>受信任的金鑰</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Evidence packs signed by these keys are shown as verified. This installation&apos;s own key is always trusted. Add another key only after comparing its fingerprint with its owner&apos;s by another channel.</source>
        <translation>由這些金鑰簽署的證據套件顯示為已驗證。此安裝自己的金鑰一律受信任。請先透過其他管道將指紋與金鑰擁有者的指紋比對，再新增其他金鑰。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Add a key…</source>
        <translation>新增金鑰…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy fingerprint</source>
        <translation>複製指紋</translation>
    </message>
</context>
<context>
    <name>TypedConfirm</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/typed_confirm.py" line="+74"/>
        <source>That is not the number of targets.</source>
        <translation>這不是目標數量。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 (%2): type %3 to confirm:</source>
        <translation>%1（%2）：輸入 %3 以確認：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 targets will change: type %1 to confirm:</source>
        <translation>將變更 %1 個目標：輸入 %1 以確認：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Number of targets, to confirm</source>
        <translation>目標數量（用於確認）</translation>
    </message>
</context>
</TS>
